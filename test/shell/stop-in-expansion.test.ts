import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runJson } from '../helpers/cli.js';

// The time limit can fire while safe-run is still expanding a command's words or opening a
// redirection of its own, where no stage of the command has started. Under `timeout N bash -c`,
// bash is killed there and runs nothing more; safe-run once went on with what the stopped expansion
// left: `echo $(sleep 30) | cat` started its pipeline after the limit and ended ok, exit 0, and
// `cat > out.$(sleep 30)` created `out.`. A wait in a FIFO's open by a compound command, a function
// call or `exec` ended not ok with status 1 (or ok), the advice saying "safe-run was interrupted".

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stop-in-expansion-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
// Long enough for safe-run to be waiting when it runs out, on a busy machine (a limit spent before the
// first step starts is another case: time-limit.test.ts); the cases of a describe run side by side.
const LIMIT = '1500ms';
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8' };

function fresh(): string {
  const cwd = fs.mkdtempSync(path.join(dir, 'case-'));
  execFileSync('mkfifo', [path.join(cwd, 'f1'), path.join(cwd, 'f2'), path.join(cwd, 'f3')]);
  return cwd;
}

describe.concurrent('a stop while a command is expanded', () => {
  it.each([
    ['echo $(sleep 30) | cat; touch after', []],
    ['cat /dev/null > out.$(sleep 30) | cat; touch after', []],
    ['cat /dev/null > out.$(sleep 30); touch after', []],
    ['echo x > out.$(sleep 30); touch after', []],
    ['x=$(sleep 30) && touch after', []],
    ['X=$(sleep 30) touch out; touch after', []],
  ])('does not run the command with what it got: %j', async (text) => {
    const cwd = fresh();
    const { result, report } = await runJson(['--timeout', LIMIT, '-c', text], { cwd, env });
    expect(result.code, result.stderr).toBe(124);
    expect(report.verdict.ok).toBe(false);
    // Only the substitution's sleep ran, and the limit stopped it.
    expect(report.stages.map((stage) => [stage.name, stage.status])).toEqual([['sleep', 'timeout']]);
    expect(report.verdict.blamedStage).toBe(1);
    expect(fs.readdirSync(cwd).sort()).toEqual(['f1', 'f2', 'f3']);
  });
});

describe.concurrent('a redirection of a command that is no program, waiting for a FIFO at the limit', () => {
  it.each([
    ['{ :; } > f1', 'brace'],
    ['(:) > f1', 'subshell'],
    ['while false; do :; done < f1', 'while'],
    ['f() { :; }; f > f1', 'f'],
    ['f() { :; } > f1; f', 'f'],
    ['x=1 > f1', 'x='],
    ['exec 3> f1', 'exec'],
    ['echo $(echo 1 > f1) | { read a < f1; }', 'echo'],
  ])('is a timeout of its stage, named: %j', async (text, name) => {
    const { result, report } = await runJson(['--timeout', LIMIT, '-c', `${text}; touch after`], {
      cwd: fresh(),
      env,
    });
    expect(result.code, result.stderr).toBe(124);
    const stopped = report.stages.filter((stage) => stage.status === 'timeout');
    expect(stopped.map((stage) => stage.name)).toEqual([name]);
    expect(stopped[0]!.stop?.reason).toContain('while a redirection waited for the other end of a FIFO');
    expect(report.next).toMatch(new RegExp(`^stage \\d+ "${name}" was stopped by a time limit`));
  });

  it('says so when no stage waited: $(< fifo) is opened by safe-run itself', async () => {
    const { result, report } = await runJson(['--timeout', LIMIT, '-c', 'x=$(< f1); touch after'], {
      cwd: fresh(),
      env,
    });
    expect(result.code, result.stderr).toBe(124);
    expect(report.verdict).toMatchObject({ ok: false, exitCode: 124, blamedStage: null });
    expect(report.verdict.reason).toBe('the pipeline timeout (1.50s) ran out during step 1');
    expect(report.next).toMatch(/^the time limit ran out in step 1 while safe-run itself waited there/);
    // Its command did not run (not with what the stop left of its value).
    expect(report.steps!.map((step) => [step.text, step.skippedBecause ?? 'ran'])).toEqual([
      ['x=$(< f1)', 'timeout'],
      ['touch after', 'timeout'],
    ]);
  });

  it('ends even when the opens outnumber the threads of the pool that runs them', async () => {
    // One thread: the second and third opens wait for it; once the limit releases the first, the
    // next starts after the stop. Node joins the pool's threads at exit, so an open that then waited
    // for ever kept safe-run from exiting (until this test's deadline).
    const text = '{ exec 3>f1; } | { exec 3>f2; } | { exec 3>f3; }';
    const { result } = await runJson(['--timeout', '300ms', '-c', text], {
      cwd: fresh(),
      env: { ...env, UV_THREADPOOL_SIZE: '1' },
      deadlineMs: 20_000,
    });
    expect(result.signal).toBeNull();
    expect(result.code, result.stderr).toBe(124);
  });
});

// Found by a review of the change above: each of these once crashed, hung or misreported.
describe.concurrent('a stop in or around a pipeline', () => {
  it('of a loop of builtins in a substitution: a short report, not a stack overflow', async () => {
    const text = 'echo "$(while :; do :; done)" | cat';
    const { result, report } = await runJson(['--timeout', LIMIT, '-c', text], { cwd: fresh(), env });
    expect(result.code, result.stderr).toBe(124);
    expect(report.verdict.reason).toBe('the pipeline timeout (1.50s) ran out before step 1 could start');
    expect(result.stdout.length).toBeLessThan(20_000);
  });

  it('inside a while element: the pipeline ran, with its program stage', async () => {
    const text = 'seq 3 | while read l; do sleep 30; done; echo after';
    const { result, report } = await runJson(['--timeout', LIMIT, '-c', text], { cwd: fresh(), env });
    expect(result.code, result.stderr).toBe(124);
    const first = report.steps![0]!;
    expect([first.text, first.ran, first.skippedBecause]).toEqual([
      'seq 3 | while read l; do sleep 30; done',
      true,
      undefined,
    ]);
    expect(report.stages[first.stages[0]! - 1]!.name).toBe('seq');
    expect(report.stages.find((stage) => stage.status === 'timeout')?.name).toBe('sleep');
  });

  it("of a compound element's redirection: its stage in the pipeline's step, no step of its own", async () => {
    const { result, report } = await runJson(['--timeout', LIMIT, '-c', '{ :; } > f1 | cat; echo after'], {
      cwd: fresh(),
      env,
    });
    expect(result.code, result.stderr).toBe(124);
    expect(report.steps!.map((step) => step.text)).toEqual(['{ :; } > f1 | cat', 'echo after']);
    expect(report.stages.map((stage) => stage.name)).toEqual(['brace', 'cat']);
  });

  it('names the step it came in, not one skipped by &&', async () => {
    const text = 'false && echo never; x=$(< f1); echo after';
    const { result, report } = await runJson(['--timeout', LIMIT, '-c', text], { cwd: fresh(), env });
    expect(result.code, result.stderr).toBe(124);
    expect(report.verdict.reason).toBe('the pipeline timeout (1.50s) ran out during step 3');
  });

  it('ends when the FIFO it waits on is removed meanwhile', async () => {
    // The release opened the FIFO by its name: once removed, nothing reached the waiting open and
    // safe-run printed its report and never exited.
    for (const waiter of ['cat < f1', 'read x < f1']) {
      const { result } = await runJson(['--timeout', LIMIT, '-c', `{ sleep 0.3; rm f1; } & ${waiter}`], {
        cwd: fresh(),
        env,
        deadlineMs: 20_000,
      });
      expect(result.signal, waiter).toBeNull();
      expect(result.code, waiter).toBe(124);
    }
  });
});

// A writer that holds the FIFO open and writes nothing: a builtin's read of it waited on libuv's pool,
// where the limit did not reach it (safe-run returned when the writer ended, never if it did not).
describe.concurrent('a read of input that does not come', () => {
  it.each([
    ['read x < f1; touch after', 'read'],
    ['mapfile a < f1; touch after', 'mapfile'],
    ['. f1; touch after', '.'],
    ['x=$(< f1); touch after', null],
  ])('is stopped by the limit: %j', async (text, name) => {
    const cwd = fresh();
    // (Its open of f1 and the text's meet: then it holds it, silent.)
    const writer = spawn('sh', ['-c', 'exec sleep 60 > f1'], { cwd, stdio: 'ignore' });
    try {
      const { result, report } = await runJson(['--timeout', LIMIT, '-c', text], {
        cwd,
        env,
        deadlineMs: 20_000,
      });
      expect(result.code, result.stderr).toBe(124);
      const stopped = report.stages.filter((stage) => stage.status === 'timeout').map((stage) => stage.name);
      expect(stopped).toEqual(name === null ? [] : [name]);
      expect(fs.existsSync(path.join(cwd, 'after'))).toBe(false);
    } finally {
      writer.kill('SIGKILL');
    }
  });
});

describe.concurrent('a read of input that keeps coming', () => {
  it.each(['mapfile -t a < <(yes)', 'x=$(< <(yes))'])(
    'lets the limit fire, and ends (it held the event loop for ever): %j',
    async (text) => {
      const { result } = await runJson(['--timeout', LIMIT, '-c', `${text}; touch after`], {
        cwd: fresh(),
        env,
        deadlineMs: 20_000,
      });
      expect(result.signal).toBeNull();
      expect(result.code, result.stderr).toBe(124);
    },
  );
});

describe('a failed redirection of exec', () => {
  it('is its step, not started, with advice about the path', async () => {
    const { result, report } = await runJson(['-c', 'exec 3> nodir/x'], { cwd: fresh(), env });
    expect(result.code).toBe(1);
    expect(report.stages.map((stage) => [stage.name, stage.status])).toEqual([['exec', 'not-started']]);
    expect(report.next).toMatch(/^stage 1 "exec" was not started because a redirection failed/);
  });
});
