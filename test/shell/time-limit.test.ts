import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/types.js';
import { runCli } from '../helpers/cli.js';
import { runSafeRun } from '../helpers/shell-oracle.js';

// --timeout over a -c list: when the limit runs out, the run ends as a timeout (124) and the steps
// it kept from starting say so. A step that ended just after the limit, before the engine's timer
// fired, once ended the run with exit 0 while the remaining steps were silently skipped.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'time-limit-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8', PWD: dir };

// What must hold whatever the timing, for a list whose steps all succeed when given the time: a step
// that did not run was kept by the limit and says so, and then the run is a timeout.
function expectConsistent(report: Report, exit: number): void {
  const steps = report.steps!;
  const byLimit = steps.filter((step) => step.skippedBecause === 'timeout');
  for (const step of steps) {
    if (!step.ran) expect(step.skippedBecause).toBe('timeout');
    if (step.ran) expect(step.skippedBecause).toBeUndefined();
  }
  const stopped = report.stages.some((stage) => stage.status === 'timeout');
  if (byLimit.length > 0 || stopped || steps.some((step) => step.exitCode === 124)) {
    expect(exit).toBe(124);
    expect(report.verdict.reason).toMatch(/timeout/);
  } else {
    expect(exit).toBe(0);
    expect(steps.every((step) => step.ran)).toBe(true);
  }
}

describe('a -c list under --timeout', () => {
  it('ends as a timeout when the limit runs out between steps, with the steps it kept marked', async () => {
    // Each NAME=value step needs a bash to expand its value, which takes longer than 1ms: the limit
    // is spent before the echo can start, whatever the machine's load.
    const text = 'A=$HOME; B=$A; echo "$B" && echo b';
    const { exit, stdout, report, stderr } = await runSafeRun(text, dir, env, ['--timeout', '1ms']);
    expect(exit, stderr).toBe(124);
    expect(stdout).toBe('');
    expect(report.verdict).toMatchObject({ ok: false, exitCode: 124, blamedStage: null });
    expect(report.verdict.reason).toMatch(
      /^the pipeline timeout \(1ms\) ran out before step [1-3] could start$/,
    );
    const first = Number(/step (\d)/.exec(report.verdict.reason)![1]);
    expect(report.steps!.map((step) => step.skippedBecause ?? 'ran')).toEqual(
      [1, 2, 3, 4].map((index) => (index < first ? 'ran' : 'timeout')),
    );
    expect(report.next).toMatch(
      new RegExp(`^step ${first} and the steps after it did not run because the time limit`),
    );
  });

  it('says so in the table', async () => {
    const result = await runCli(
      ['--no-facts', '--timeout', '1ms', '-c', 'A=$HOME; B=$A; echo "$B" && echo b'],
      {
        cwd: dir,
        env,
      },
    );
    expect(result.code).toBe(124);
    expect(result.stderr).toMatch(/^step 4: && echo b: skipped \(time limit\)$/m);
    expect(result.stderr).toMatch(
      /not ok, exit 124 \(the pipeline timeout \(1ms\) ran out before step \d could start\)/,
    );
  });

  it('never exits 0 with steps left unrun, for steps that end around the limit', async () => {
    // The sleeps straddle the limit: some end before it, some just after it (before the engine's
    // timer fires, or after), some are stopped by it. Which one happens depends on the machine; the
    // outcome must be consistent in every case.
    for (const seconds of ['0.17', '0.19', '0.195', '0.2', '0.21']) {
      const text = `sleep ${seconds}; echo a && echo b`;
      const { exit, report, stderr } = await runSafeRun(text, dir, env, ['--timeout', '200ms']);
      expect(exit === 0 || exit === 124, stderr).toBe(true);
      expectConsistent(report, exit);
    }
  }, 60_000);

  it('keeps the verdict of a step the limit stopped, and marks the rest', async () => {
    const { exit, report } = await runSafeRun('sleep 5 || echo fallback; echo after', dir, env, [
      '--timeout',
      '300ms',
    ]);
    expect(exit).toBe(124);
    expect(report.verdict.blamedStage).toBe(1);
    expect(report.stages[0]!.status).toBe('timeout');
    expect(report.steps!.map((step) => step.skippedBecause ?? 'ran')).toEqual(['ran', 'timeout', 'timeout']);
    expectConsistent(report, exit);
  });

  it('is not ok when the limit stopped a background job, whatever the text did after', async () => {
    // `wait` gives 0 once its job is gone: the run said "ok, exit 0" though the limit had fired.
    const { exit, report } = await runSafeRun('sleep 300 & wait', dir, env, ['--timeout', '1s']);
    expect(exit).toBe(124);
    expect(report.stages[0]!.status).toBe('timeout');
    expect(report.verdict.reason).toContain('the pipeline timeout');
    expectConsistent(report, exit);
  });

  it('leaves the steps bash skips unmarked when the time is not up', async () => {
    const { exit, report } = await runSafeRun('true || echo never; echo after', dir, env, [
      '--timeout',
      '1m',
    ]);
    expect(exit).toBe(0);
    expect(report.steps!.map((step) => [step.ran, step.skippedBecause ?? null])).toEqual([
      [true, null],
      [false, null],
      [true, null],
    ]);
  });
  it('ends as a timeout when the limit stops a builtin waiting in a FIFO open inside $(...)', async () => {
    // safe-run expands a pipeline's words before starting it (bash runs the substitution beside the
    // reader): the substitution's `echo > fifo` waits for a reader until the limit. No stage is
    // stopped, and the run said ok, exit 0 (found by a review, helper-26).
    const fifoDir = fs.mkdtempSync(path.join(dir, 'fifo-'));
    execFileSync('mkfifo', [path.join(fifoDir, 'f1')]);
    const text = 'echo $(echo 1 > f1) | { read a < f1; echo got $a; }';
    const result = await runCli(['--no-facts', '--json', '--timeout', '1s', '-c', text], {
      cwd: fifoDir,
      env,
    });
    expect(result.code, result.stderr).toBe(124);
    const report = JSON.parse(result.stdout) as Report;
    // The substitution's echo is the stage stopped, in the pipeline's step; the pipeline never started.
    expect(report.verdict).toMatchObject({ ok: false, exitCode: 124, blamedStage: 1 });
    expect(report.stages.map((stage) => [stage.name, stage.status])).toEqual([['echo', 'timeout']]);
    expect(report.verdict.reason).toContain('while a redirection waited for the other end of a FIFO');
    expect(report.steps![0]!.text).toBe(text);
    expect(report.next).toMatch(/^stage 1 "echo" was stopped by a time limit/);
  });
});
