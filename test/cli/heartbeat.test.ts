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
      /^safe-run: heartbeat: stage 1 "sh" \(sh -c 'echo started >&2; while .*'\) running for \S+, stdout piped, stderr 8 B, nothing printed for \S+; sh \(pid \d+\): (sleeping|running on a CPU)/,
    );
    expect(run.stderr()).toMatch(
      /safe-run: heartbeat: stage 2 "cat" \(cat\) running for \S+, stdout 0 B, stderr 0 B/,
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
