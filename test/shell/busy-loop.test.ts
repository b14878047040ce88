import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { runJson } from '../helpers/index.js';

// A text of builtins only runs on promises alone: without a turn of the event loop now and then, no
// timer (the time limit) and no signal handler could run, and `while :; do :; done` never ended.

describe('a loop of builtins only', () => {
  it('ends at the time limit', async () => {
    const { result, report } = await runJson(['--timeout', '1s', '-c', 'while :; do :; done'], {
      deadlineMs: 60_000,
    });
    expect(result.code).toBe(124);
    expect(report.verdict.reason).toMatch(
      /^the pipeline timeout \(1\.00s\) ran out before step \d+ could start$/,
    );
  });

  it('ends on SIGTERM to safe-run, with 143', async () => {
    const child = spawn(
      process.execPath,
      [BIN, '--no-facts', '-q', '-c', 'echo started; while :; do :; done'],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    expect(code).toBe(143);
  });

  it('in the background is stopped by kill %1', async () => {
    const { result, report } = await runJson(['-c', 'while :; do :; done & kill %1; wait; echo "w=$?"'], {
      deadlineMs: 60_000,
    });
    expect(result.code).toBe(0);
    expect(report.stages.at(-1)!.stdout.text).toMatch(/^w=\d+\n$/);
  });
});
