import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/types.js';
import { againstBash } from '../helpers/against-bash.js';
import { BIN, runCli } from '../helpers/cli.js';
import { waitFor } from '../helpers/poll.js';

// `COMMAND &` starts a job and the text goes on at once, as under bash. It once ran in the foreground:
// $! was empty, `sleep 30 & echo started` took 30 s, and a job reading a FIFO the text writes next
// hung for ever. Whether the text went on while the job ran is proved by order (a FIFO the job reads
// and the text writes after the `&`), never by time; a hang ends at runCli's deadline (code null).

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'background-jobs-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, LANG: 'C.UTF-8' };
const fresh = () => fs.mkdtempSync(path.join(root, 'case-'));

async function ours(text: string, cwd = fresh()): Promise<{ code: number | null; report: Report }> {
  const result = await runCli(['--no-facts', '--json', '-c', text], { cwd, env });
  expect(result.code, result.stderr).not.toBeNull();
  return { code: result.code, report: JSON.parse(result.stdout) as Report };
}

const printed = (report: Report) => report.stages.map((stage) => stage.stdout.text).join('');

describe('a background job', () => {
  it('runs while the text goes on: a job reading a FIFO gets what the text writes after the &', async () => {
    const text = 'mkfifo p; cat p & echo hi > p; wait; echo "wait: $?"';
    const { bash, ours: got } = await againstBash(text, { cwd: fresh(), env });
    expect(bash.stdout).toBe('hi\nwait: 0\n');
    expect(got.code).toBe(bash.code);
    expect(got.stdout.split('\n').sort()).toEqual(bash.stdout.split('\n').sort());
  });

  it('runs while the text goes on when its first command is a builtin waiting in a FIFO open', async () => {
    const text = 'mkfifo go; { read line < go; echo "job saw $line"; } > out & echo main > go; wait; cat out';
    const { bash, ours: got } = await againstBash(text, { cwd: fresh(), env });
    expect(bash.stdout).toBe('job saw main\n');
    expect(got).toEqual({ code: bash.code, stdout: bash.stdout });
  });

  it('sets $! to the pid of the pipeline’s last process, as bash does', async () => {
    const { code, report } = await ours('sleep 0.2 | sleep 0.3 & echo "pid [$!]"; wait');
    expect(code).toBe(0);
    const pid = /^pid \[(\d+)\]$/m.exec(printed(report))?.[1];
    const last = report.stages.find((stage) => stage.argv.join(' ') === 'sleep 0.3');
    expect(pid).toBeDefined();
    expect(Number(pid)).toBe(last?.pid);
  });

  it.each([
    ['sh -c "exit 3" & wait $!; echo "status $?"; wait %1; echo "again $?"'],
    ['sh -c "exit 4" & a=$!; sh -c "exit 5" & wait $!; echo "$?"; wait $a; echo "$?"; wait; echo "all $?"'],
    ['sh -c "exit 6" & p=$!; wait "$p"; echo "$?"; wait "$p"; echo "by pid again $?"'],
    ['sleep 1000 & kill %1; wait %1; echo "killed $?"'],
    ['sleep 1000 & kill $!; wait $!; echo "killed $?"'],
    ['wait %3; echo "none $?"; wait 1; echo "not ours $?"'],
  ])('gives its status to wait as bash does: %s', async (text) => {
    const { bash, ours: got } = await againstBash(text, { cwd: fresh(), env });
    expect(got).toEqual({ code: bash.code, stdout: bash.stdout });
  });

  it('is listed by jobs while it runs, as bash -c lists it', async () => {
    // (Not `jobs` after the kill: whether bash has noticed the end of a job by then is a race.)
    const text = 'sleep 1000 & sleep 1000 | cat & jobs; jobs %1; jobs -p | wc -l; kill %1 %2; wait';
    const { bash, ours: got } = await againstBash(text, { cwd: fresh(), env });
    expect(bash.stdout).toContain('[2]+  Running');
    expect(got).toEqual({ code: bash.code, stdout: bash.stdout });
  });

  it('still running when the text ends is stopped there, its stages a step of their own', async () => {
    const { code, report } = await ours('sleep 1000 & echo started');
    expect(code).toBe(0);
    expect(printed(report)).toBe('started\n');
    const step = report.steps?.find((s) => s.text === 'sleep 1000');
    expect(step?.stages).toHaveLength(1);
    const stage = report.stages.find((s) => s.index === step?.stages[0]);
    expect(stage?.status).toBe('cancelled');
    expect(stage?.pid).toEqual(expect.any(Number));
    // The text's end stopped it, not a signal to safe-run (which is what the report once said).
    expect(stage?.stop?.cause).toEqual({ kind: 'requested', signal: 'SIGTERM', by: 'text-end' });
    expect(stage?.stop?.reason).toBe('the text ended while this background job ran');
    // Ok, as bash says (0), but whoever expected it to keep running is told it was stopped.
    expect(report.ok).toBe(true);
    expect(report.next).toBe(
      'stage 2 "sleep" ran in the background (&) and was stopped when the text ended, as safe-run stops whatever a text leaves running: to keep a server up for later commands, start it alone as a job (safe-run mcp: "background": true); to use it in this text, put the commands that need it after it, in the same text',
    );
  });

  it("stopped by the text's own kill is told so, and the text goes on", async () => {
    const { code, report } = await ours('sleep 1000 & kill $!; wait $!; echo "wait: $?"');
    expect(code).toBe(0);
    expect(printed(report)).toBe('wait: 143\n');
    const stage = report.stages.find((s) => s.argv[0] === 'sleep');
    expect(stage?.stop?.cause).toEqual({ kind: 'requested', signal: 'SIGTERM', by: 'kill' });
    expect(stage?.stop?.reason).toBe("the text's kill");
    expect(report.next).toBeNull();
  });
});

describe('a signal to safe-run after a job was killed by the text', () => {
  it('is still told as a signal to safe-run, with the advice for it', async () => {
    const cwd = fresh();
    const text = 'sleep 1000 & kill %1; wait; touch ready; sleep 3098';
    const child = spawn(process.execPath, [BIN, '--no-facts', '--json', '-c', text], { cwd, env });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    const running = () =>
      fs.readdirSync('/proc').some((pid) => {
        try {
          return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8') === 'sleep\x003098\x00';
        } catch {
          return false;
        }
      });
    await waitFor('the last sleep', () => fs.existsSync(path.join(cwd, 'ready')) && running());
    child.kill('SIGTERM');
    expect(await closed).toBe(143);
    const report = JSON.parse(out) as Report;
    expect(report.verdict.reason).toBe('safe-run was stopped by SIGTERM; running stages were cancelled');
    // The killed job's stop was the text's own; the run's end was not asked for: advice is due.
    expect(report.next).toBe('safe-run was interrupted: run again when you mean to');
  }, 40_000);
});
