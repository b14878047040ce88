// --heartbeat: after a silence, one line per running stage saying what it is doing. The stage waits
// for a file the test creates only once it has read the heartbeat, so no timing is assumed.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, runCli, waitFor } from '../helpers/index.js';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-heartbeat-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

function start(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [BIN, '--no-facts', ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', SAFE_RUN_FACTS: undefined, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    }),
  );
  return { stderr: () => stderr, exited };
}

describe('--heartbeat', () => {
  it('says, for each running stage, how long it ran, its bytes and what it waits in', async () => {
    const go = path.join(scratch, 'go');
    const waiter = `while [ ! -e ${go} ]; do sleep 0.2; done`;
    const run = start(['--heartbeat', '300ms', '-c', `sh -c 'echo started >&2; ${waiter}' | cat`]);
    await waitFor('a heartbeat', () => run.stderr().includes('safe-run: heartbeat:'), 30_000);
    fs.writeFileSync(go, '');
    expect(await run.exited).toBe(0);
    const beat = run
      .stderr()
      .split('\n')
      .find((line) => line.startsWith('safe-run: heartbeat: stage 1'))!;
    expect(beat).toMatch(
      /^safe-run: heartbeat: stage 1 "sh" \(sh -c 'echo started >&2; while .*'\) running for \S+, stdout piped, stderr 8 B, nothing printed for \S+; sh \(pid \d+\): (waiting for (a child|child \d+ `sleep 0.2`|its children \(.*\)) to exit|running: working, not blocked)/,
    );
    expect(run.stderr()).toMatch(
      /safe-run: heartbeat: stage 2 "cat" \(cat\) running for \S+, stdout 0 B, stderr 0 B/,
    );
  });

  it("says in the hang diagnostics' words that a stage is blocked on a pipe nobody reads", async () => {
    const go = path.join(scratch, 'go-blocked');
    // sleep's stdin is not the pipe: the shell stays its only reader.
    const reader = `sh -c 'while [ ! -e ${go} ]; do sleep 0.2 </dev/null; done'`;
    const run = start(['--heartbeat', '300ms', '-c', `yes | ${reader}`]);
    const blocked =
      /safe-run: heartbeat: stage 1 "yes" .*; yes \(pid \d+\): blocked writing to stdout, a pipe whose only reader, pid (\d+) `sh -c while .*`, never reads it$/m;
    await waitFor('a heartbeat saying yes is blocked', () => blocked.test(run.stderr()), 30_000);
    fs.writeFileSync(go, '');
    await run.exited;
    const reader2 = run.stderr().match(blocked)![1];
    // The reader named is stage 2's own process, which the same heartbeat describes.
    expect(run.stderr()).toMatch(
      new RegExp(
        `safe-run: heartbeat: stage 2 "sh" .*; sh \\(pid ${reader2}\\): (waiting for (a child|child \\d+ \`sleep 0.2\`|its children \\(.*\\)) to exit|running: working, not blocked)`,
      ),
    );
  });

  it('masks secrets in what it reads from /proc too', async () => {
    const secret = 'heartbeat-secret-1234';
    const program = path.join(scratch, `sh-${secret}`);
    fs.symlinkSync('/bin/sh', program);
    const go = path.join(scratch, 'go-masked');
    const run = start(
      ['--heartbeat', '300ms', '--', program, '-c', `while [ ! -e ${go} ]; do sleep 0.2; done`],
      {
        API_TOKEN: secret,
      },
    );
    await waitFor('a heartbeat', () => run.stderr().includes('safe-run: heartbeat:'), 30_000);
    fs.writeFileSync(go, '');
    expect(await run.exited).toBe(0);
    expect(run.stderr()).toMatch(/heartbeat: .*sh-\*\*\* \(pid \d+\)/);
    expect(run.stderr()).not.toContain(secret);
  });

  it('is off by default outside CI and with --heartbeat 0 in CI', async () => {
    const quiet = await runCli(['--no-facts', '--', 'sleep', '0.5']);
    expect(quiet.stderr).not.toContain('heartbeat');
    const off = await runCli(['--no-facts', '--heartbeat', '0', '--', 'sleep', '0.5'], {
      env: { CI: 'true' },
    });
    expect(off.stderr).not.toContain('heartbeat');
  });

  it('refuses a duration it cannot read, before anything starts', async () => {
    const result = await runCli(['--no-facts', '--heartbeat', 'soon', '--', 'true']);
    expect(result.code).toBe(125);
    expect(result.stderr.split('\n')[0]).toMatch(/^safe-run: --heartbeat: /);
  });
});
