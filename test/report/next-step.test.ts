import { describe, expect, it } from 'vitest';
import { nextStep } from '../../src/engine/report/next-step.js';
import type { BlockedProcess, StageResult, StageStatus } from '../../src/types.js';
import { reportOf, settingsWith, stageResult, streamReport } from '../helpers/index.js';

// A failed run of `stages`, whose verdict blames stage `blamed`.
function blaming(blamed: number, stages: StageResult[], sigpipe: 'tolerate' | 'fail' = 'tolerate') {
  return reportOf(stages, {
    verdict: { ok: false, exitCode: 1, blamedStage: blamed, reason: 'test' },
    settings: settingsWith({ sigpipe }),
  });
}

function alone(status: StageStatus, overrides: Partial<StageResult> = {}) {
  return blaming(1, [stageResult(1, status, { name: 'job', argv: ['job'], ...overrides })]);
}

// A stage leader whose main thread waits for a thread that spins (test/fixtures/hang/spin-thread.mjs).
const spinning: BlockedProcess = {
  pid: 1001,
  ppid: 1,
  stage: 1,
  command: 'node spin-thread.mjs',
  role: null,
  state: 'S',
  wchan: 'futex_wait_queue',
  blocked: null,
  peers: null,
  wait: 'working',
  threads: [
    {
      tid: 1012,
      name: 'node',
      state: 'R',
      blocked: null,
      wait: 'working',
      explanation: 'running: working, not blocked',
    },
  ],
  explanation:
    'thread 1012 `node`: running: working, not blocked; the main thread: waiting on a lock or another thread (futex)',
};

describe('nextStep for a failed run', () => {
  it.each([
    {
      what: 'a program that is not there',
      report: alone('not-started', {
        error: { code: 'ENOENT', message: 'not found', exitCode: 127, during: 'preflight' },
      }),
      next: 'stage 1 "job" could not start (ENOENT): fix the machine (install the program, fix PATH or permissions); running the same command again will not help until then',
    },
    {
      what: 'a start the kernel refused',
      report: alone('not-started', {
        error: { code: 'E2BIG', message: 'argument list too long', exitCode: 126, during: 'start' },
      }),
      next: 'stage 1 "job" was refused by the kernel when it started (E2BIG): argument list too long',
    },
    {
      what: 'a time limit',
      report: alone('timeout', {
        stop: {
          reason: 'the pipeline timeout (1.00s)',
          cause: { kind: 'pipeline-timeout', limitMs: 1000 },
          afterMs: 1000,
          signals: ['SIGTERM'],
          snapshot: [],
          deadlock: null,
          waitingForStage: null,
        },
      }),
      next: 'stage 1 "job" was stopped by a time limit (the pipeline timeout (1.00s)): find out why it is slow or stuck before raising the limit',
    },
    {
      what: 'a time limit, the leader told by a thread other than its main one',
      report: alone('timeout', {
        stop: {
          reason: 'the pipeline timeout (3.00s)',
          cause: { kind: 'pipeline-timeout', limitMs: 3000 },
          afterMs: 3000,
          signals: ['SIGTERM'],
          snapshot: [spinning],
          deadlock: null,
          waitingForStage: null,
        },
      }),
      next: 'stage 1 "job" was stopped by a time limit (the pipeline timeout (3.00s)); at the stop, its pid 1001 (thread 1012 `node`) was running: working, not blocked; the main thread: waiting on a lock or another thread (futex): find out why it is slow or stuck before raising the limit',
    },
    {
      what: 'an output cap',
      report: alone('limit'),
      next: 'stage 1 "job" was stopped for writing more than its cap: raise --max-stdout/--max-stderr or use --on-limit truncate',
    },
    {
      what: 'a SIGKILL safe-run did not send',
      report: alone('signaled', { signal: 'SIGKILL' }),
      next: 'stage 1 "job" was killed by SIGKILL, not sent by safe-run: often the kernel\'s out-of-memory killer (see the system log)',
    },
    {
      what: 'another signal safe-run did not send',
      report: alone('signaled', { signal: 'SIGSEGV' }),
      next: 'stage 1 "job" was killed by SIGSEGV, not sent by safe-run; read its stderr (stages[0].stderr in the JSON report)',
    },
    {
      what: 'grep finding nothing',
      report: alone('failed', { name: 'grep', argv: ['/usr/bin/grep', 'x'], exitCode: 1 }),
      next: 'stage 1 "grep" exited 1, which for grep means "no line was selected": if that is a valid result, add --ok-codes grep=0,1 (or contract: lenient on the stage in a spec); otherwise read its stderr (stages[0].stderr in the JSON report)',
    },
    {
      what: 'a failure that said why',
      report: alone('failed', {
        exitCode: 2,
        stderr: streamReport({ text: 'first\n  cannot open x  \n\n' }),
      }),
      next: 'stage 1 "job" failed with exit 2; its last stderr line: "cannot open x"',
    },
    {
      what: 'a failure whose last line is long',
      report: alone('failed', { exitCode: 2, stderr: streamReport({ text: `${'e'.repeat(250)}\n` }) }),
      next: `stage 1 "job" failed with exit 2; its last stderr line: "${'e'.repeat(200)}..."`,
    },
    {
      what: 'a silent failure with a log',
      report: alone('failed', { exitCode: 2, stderr: streamReport({ logFile: '/tmp/logs/1-job.stderr' }) }),
      next: 'stage 1 "job" failed with exit 2; it wrote nothing to stderr (whole stream: /tmp/logs/1-job.stderr)',
    },
    {
      what: 'a failure whose stderr went into its stdout (2>&1)',
      report: alone('failed', {
        exitCode: 1,
        stderr: streamReport({ to: 'stdout', target: { kind: 'stdout' } }),
      }),
      next: 'stage 1 "job" failed with exit 1; its stderr went into its stdout (2>&1): read it there',
    },
    {
      what: 'a failure whose stderr went to a file',
      report: alone('failed', { exitCode: 1, stderr: streamReport({ to: 'file err.log' }) }),
      next: 'stage 1 "job" failed with exit 1; its stderr went to file err.log: read it there',
    },
    {
      what: 'a failure whose stderr was thrown away',
      report: alone('failed', { exitCode: 1, stderr: streamReport({ to: 'file /dev/null' }) }),
      next: 'stage 1 "job" failed with exit 1; its stderr was thrown away (to /dev/null): run it without that to see why',
    },
    {
      what: 'a failure whose stderr went to the captured stdout before stdout went to a file (2>&1 >out)',
      report: alone('failed', {
        stdout: streamReport({ text: 'no\n', to: 'file out' }),
        stderr: streamReport({ to: 'stdout', target: { kind: 'stdout' } }),
      }),
      next: 'stage 1 "job" failed with exit 1; its stderr went to the stdout safe-run captured and its stdout to file out (2>&1 came before stdout\'s own redirection): read it in the stage\'s stdout',
    },
    {
      what: 'a piped failure whose stderr went into the pipe (2>&1 |)',
      report: blaming(1, [
        stageResult(1, 'failed', {
          name: 'ls',
          stdout: streamReport({ text: null }),
          stderr: streamReport({ to: 'stdout' }),
        }),
        stageResult(2, 'ok', { name: 'cat' }),
      ]),
      next: 'stage 1 "ls" failed with exit 1; its stderr went into the pipe to stage 2 "cat" (2>&1): it was that stage\'s input',
    },
    {
      what: 'a piped failure whose stderr went into the pipe and stdout to /dev/null (2>&1 >/dev/null |)',
      report: blaming(1, [
        stageResult(1, 'failed', {
          name: 'ls',
          stdout: streamReport({ text: null, to: 'file /dev/null' }),
          stderr: streamReport({ to: 'stdout' }),
        }),
        stageResult(2, 'ok', { name: 'cat' }),
      ]),
      next: 'stage 1 "ls" failed with exit 1; its stderr went into the pipe to stage 2 "cat" and its stdout to file /dev/null (2>&1 came before stdout\'s own redirection): it was that stage\'s input',
    },
    {
      what: 'a cancelled stage',
      report: alone('cancelled'),
      next: 'stage 1 "job" ended as cancelled; see report.verdict.reason',
    },
  ])('for $what', ({ report, next }) => {
    expect(nextStep(report)).toBe(next);
  });

  it('for a SIGPIPE under --sigpipe fail, offers tolerate', () => {
    const report = blaming(1, [stageResult(1, 'sigpipe', { name: 'yes' }), stageResult(2, 'ok')], 'fail');
    expect(nextStep(report)).toBe(
      'stage 1 "yes" was killed by SIGPIPE because its reader closed early; if that is intended, run with --sigpipe tolerate',
    );
  });

  it('for a SIGPIPE whose reader failed, points at the reader', () => {
    const report = blaming(1, [stageResult(1, 'sigpipe', { name: 'yes' }), stageResult(2, 'failed')]);
    expect(nextStep(report)).toBe(
      'stage 1 "yes" was killed by SIGPIPE: its reader stopped reading and did not succeed; look at the stage after it',
    );
  });

  it("for the last stage's SIGPIPE, points at safe-run's own stdout", () => {
    const report = blaming(2, [stageResult(1, 'ok'), stageResult(2, 'sigpipe', { name: 'cat' })]);
    expect(nextStep(report)).toBe(
      'stage 2 "cat" was killed by SIGPIPE: its reader stopped reading (safe-run could not write its own stdout; see warnings)',
    );
  });

  it.each([
    { exitCode: 124, next: /^a time limit fired after every stage had exited/ },
    { exitCode: 130, next: /^safe-run was interrupted: run again when you mean to$/ },
  ])('with nobody to blame and exit $exitCode', ({ exitCode, next }) => {
    const report = reportOf([stageResult(1, 'ok')], {
      verdict: { ok: false, exitCode, blamedStage: null, reason: 'test' },
    });
    expect(nextStep(report)).toMatch(next);
  });
});

describe('nextStep for a run that was ok', () => {
  const cut = streamReport({ truncated: true, omittedBytes: 10 });
  it.each([
    { what: 'nothing was cut', stages: [stageResult(1, 'ok')], streamed: false, next: null },
    {
      what: 'stderr was cut',
      stages: [stageResult(1, 'ok', { stderr: cut }), stageResult(2, 'ok')],
      streamed: false,
      next: 'ok; stage 1 "stage1" wrote more than the cap and only head and tail were kept: rerun with --log-dir DIR to keep everything',
    },
    {
      what: 'stderr was cut but logged whole',
      stages: [stageResult(1, 'ok', { stderr: { ...cut, logFile: '/tmp/l' } })],
      streamed: false,
      next: null,
    },
    {
      what: "the last stage's stdout was cut and not streamed",
      stages: [stageResult(1, 'ok', { stdout: cut })],
      streamed: false,
      next: 'ok; stage 1 "stage1" wrote more than the cap and only head and tail were kept: rerun with --log-dir DIR to keep everything',
    },
    {
      what: "the last stage's stdout was cut in the report but streamed whole",
      stages: [stageResult(1, 'ok', { stdout: cut })],
      streamed: true,
      next: null,
    },
  ])('when $what', ({ stages, streamed, next }) => {
    expect(nextStep(reportOf(stages), streamed)).toBe(next);
  });
});
