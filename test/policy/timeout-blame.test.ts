import { describe, expect, it } from 'vitest';
import { viewStage } from '../../src/hang/run-snapshot.js';
import { decideVerdict, type VerdictInput } from '../../src/policy/verdict.js';
import type { BlockedProcess, StageResult, StageStop } from '../../src/types.js';

type Outcome = Parameters<typeof decideVerdict>[0][number];

function stage(
  index: number,
  name: string,
  status: StageResult['status'],
  stop: Partial<StageStop> | null,
): Outcome {
  const full: StageStop | null = stop
    ? {
        reason: 'the pipeline timeout (2.00s)',
        cause: { kind: 'pipeline-timeout', limitMs: 2000 },
        afterMs: 2000,
        signals: ['SIGTERM'],
        snapshot: [],
        deadlock: null,
        waitingForStage: null,
        ...stop,
      }
    : null;
  return {
    index,
    name,
    status,
    exitCode: status === 'ok' ? 0 : null,
    signal: null,
    optional: false,
    error: null,
    stop: full,
  };
}

const input: VerdictInput = {
  policy: 'pipefail',
  sigpipe: 'tolerate',
  stdoutReaderGone: false,
  interruptedBy: null,
  timeLimit: 'the pipeline timeout (2.00s)',
};

describe('which stage a time limit blames', () => {
  it.each([
    {
      title: 'the working stage, not the one only waiting for its output',
      stages: [stage(1, 'sh', 'timeout', {}), stage(2, 'tee', 'timeout', { waitingForStage: 1 })],
      blamed: 1,
      reason: /^stage 1 "sh" was stopped: .*; stage 2 "tee" was only waiting for input from stage 1$/,
    },
    {
      title: 'the last stopped stage by pipefail when none was only waiting',
      stages: [stage(1, 'yes', 'timeout', {}), stage(2, 'sh', 'timeout', {})],
      blamed: 2,
      reason: /^stage 2 "sh" was stopped/,
    },
    {
      title: 'never a stage that had exited before the stop, which the reason names',
      stages: [stage(1, 'echo', 'ok', null), stage(2, 'sh', 'timeout', {})],
      blamed: 2,
      reason: /; stage 1 "echo" exited 0 before the stop$/,
    },
  ])('$title', ({ stages, blamed, reason }) => {
    const verdict = decideVerdict(stages, input);
    expect(verdict.exitCode).toBe(124);
    expect(verdict.blamedStage).toBe(blamed);
    expect(verdict.reason).toMatch(reason);
  });
});

describe("a stage's part of a run snapshot", () => {
  const entry = (pid: number, stageIndex: number | null, state: string): BlockedProcess => ({
    pid,
    ppid: 1,
    stage: stageIndex,
    command: `p${pid}`,
    role: null,
    state,
    wchan: null,
    wait: 'sleep',
    threads: null,
    blocked: null,
    peers: null,
    explanation: '',
  });
  const report = { processes: [entry(10, 1, 'S'), entry(20, 2, 'Z'), entry(30, null, 'S')], deadlock: null };

  it('says a leader that had already exited was not stopped', () => {
    expect(viewStage(report, 2, 20).exited).toBe(true);
    expect(viewStage(report, 1, 10).exited).toBe(false);
  });

  it('lists processes of no known stage once, with stage 1', () => {
    expect(viewStage(report, 1, 10).detail.snapshot.map((e) => e.pid)).toEqual([10, 30]);
    expect(viewStage(report, 2, 20).detail.snapshot.map((e) => e.pid)).toEqual([20]);
  });
});
