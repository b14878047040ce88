import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/types.js';
import { BIN, runJson } from '../helpers/cli.js';
import { waitFor } from '../helpers/poll.js';

// bash runs its EXIT trap when `timeout` (or a CI runner cancelling a job) sends it SIGTERM, so a
// script's cleanup (`trap 'rm -rf "$tmp"; docker rm -f db' EXIT`) runs when it is stopped. safe-run
// listed the trap's commands as skipped and ran none. Now the trap runs after a stop by the time
// limit or a signal, for --kill-after at most; a second signal ends it at once.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'exit-trap-stop-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8' };
// Long enough for the text to be in its sleep when it runs out, on a busy machine.
const LIMIT = '1500ms';

function fresh(): string {
  return fs.mkdtempSync(path.join(dir, 'case-'));
}

// safe-run started on `text` in `cwd`, its report and exit code once it ends.
function started(text: string, cwd: string, flags: string[] = []) {
  const child = spawn(process.execPath, [BIN, '--no-facts', '--json', ...flags, '-c', text], {
    cwd,
    env: { ...env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const ended = new Promise<{ code: number | null; report: Report }>((resolve) =>
    child.on('close', (code) => resolve({ code, report: JSON.parse(out) as Report })),
  );
  return { child, ended };
}

describe.concurrent('the EXIT trap of a text that was stopped', () => {
  it('runs after the time limit, and the verdict stays the stop', async () => {
    const cwd = fresh();
    const text = "trap 'echo cleaned > done.txt' EXIT; sleep 30; touch after";
    const { result, report } = await runJson(['--timeout', LIMIT, '-c', text], { cwd, env });
    expect(result.code, result.stderr).toBe(124);
    expect(fs.readFileSync(path.join(cwd, 'done.txt'), 'utf8')).toBe('cleaned\n');
    expect(fs.existsSync(path.join(cwd, 'after'))).toBe(false);
    expect(report.verdict).toMatchObject({ ok: false, exitCode: 124, blamedStage: 2 });
    expect(report.stages.map((stage) => [stage.name, stage.status])).toEqual([
      ['trap', 'ok'],
      ['sleep', 'timeout'],
      ['echo', 'ok'],
    ]);
  });

  it("runs a subshell's own, and nothing after it", async () => {
    const cwd = fresh();
    const text = "( trap 'echo sub > sub.txt' EXIT; sleep 30 ); touch after";
    const { result } = await runJson(['--timeout', LIMIT, '-c', text], { cwd, env });
    expect(result.code, result.stderr).toBe(124);
    expect(fs.readFileSync(path.join(cwd, 'sub.txt'), 'utf8')).toBe('sub\n');
    expect(fs.existsSync(path.join(cwd, 'after'))).toBe(false);
  });

  it('is itself stopped after --kill-after', async () => {
    const cwd = fresh();
    const text = "trap 'sleep 60; touch never' EXIT; sleep 30";
    const { result, report } = await runJson(['--timeout', LIMIT, '--kill-after', '500ms', '-c', text], {
      cwd,
      env,
      deadlineMs: 20_000,
    });
    expect(result.signal).toBeNull();
    expect(result.code, result.stderr).toBe(124);
    expect(fs.existsSync(path.join(cwd, 'never'))).toBe(false);
    // The stop is the text's; the trap's sleep was stopped too.
    expect(report.verdict.blamedStage).toBe(2);
    expect(report.stages.map((stage) => stage.status)).toEqual(['ok', 'timeout', 'timeout']);
  });

  // Found by a review (helper-28): the trap's own waits raced the stop that had already come.
  it.each([
    ['printf "l1\\nl2\\n" | while read l; do echo got $l; done > out.txt', 'got l1\ngot l2\n'],
    ['cat < <(printf "a\\nb\\n") > out.txt', 'a\nb\n'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
    ['mapfile -t a < <(printf "x\\ny\\n"); echo ${#a[@]} > out.txt', '2\n'],
  ])('reads pipes and process substitutions in it: %j', async (cleanup, expected) => {
    const cwd = fresh();
    const { result } = await runJson(['--timeout', LIMIT, '-c', `trap '${cleanup}' EXIT; sleep 30`], {
      cwd,
      env,
      deadlineMs: 20_000,
    });
    expect(result.code, result.stderr).toBe(124);
    expect(fs.readFileSync(path.join(cwd, 'out.txt'), 'utf8')).toBe(expected);
  });

  it('is not stopped by the idle limit that stopped the text', async () => {
    const cwd = fresh();
    const text = "trap 'sleep 1; touch done.txt' EXIT; sleep 30";
    const { result } = await runJson(['--idle-timeout', '500ms', '-c', text], { cwd, env });
    expect(result.code, result.stderr).toBe(124);
    expect(fs.existsSync(path.join(cwd, 'done.txt'))).toBe(true);
  });

  it('runs after SIGTERM to safe-run; a second SIGTERM ends it', async () => {
    const cwd = fresh();
    // --kill-after 60s: only the second signal can end the trap's sleep within the deadline.
    const text = "trap 'touch trap-ran; sleep 60; touch never' EXIT; touch started; sleep 60";
    const { child, ended } = started(text, cwd, ['--kill-after', '60s']);
    await waitFor('the text to start', () => fs.existsSync(path.join(cwd, 'started')), 20_000);
    child.kill('SIGTERM');
    await waitFor('the trap to run', () => fs.existsSync(path.join(cwd, 'trap-ran')), 20_000);
    child.kill('SIGTERM');
    const { code, report } = await ended;
    expect(code).toBe(143);
    expect(fs.existsSync(path.join(cwd, 'never'))).toBe(false);
    expect(report.verdict.exitCode).toBe(143);
  });
});
