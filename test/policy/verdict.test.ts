import { describe, expect, it } from 'vitest';
import { decideVerdict, successes, type VerdictInput } from '../../src/policy/verdict.js';
import type { Policy, StageResult, StageStatus } from '../../src/types.js';
import { stageResult } from '../helpers/index.js';

// Stages written as `status` or `status:exit`, e.g. 'failed:3'; `?` marks an optional stage.
function stages(...specs: string[]): StageResult[] {
  return specs.map((spec, i) => {
    const optional = spec.endsWith('?');
    const [status, exit] = spec.replace('?', '').split(':') as [StageStatus, string | undefined];
    const overrides: Partial<StageResult> = { optional };
    if (exit !== undefined) overrides.exitCode = Number(exit);
    if (status === 'not-started') {
      const code = exit === '126' ? 'EACCES' : 'ENOENT';
      overrides.error = { code, message: 'no', exitCode: exit === '126' ? 126 : 127, during: 'preflight' };
    }
    return stageResult(i + 1, status, overrides);
  });
}

function input(policy: Policy, extra: Partial<VerdictInput> = {}): VerdictInput {
  return { policy, sigpipe: 'tolerate', stdoutReaderGone: false, interruptedBy: null, ...extra };
}

interface Case {
  what: string;
  stages: string[];
  policy: Policy;
  extra?: Partial<VerdictInput>;
  exit: number;
  blamed: number | null;
  reason?: RegExp;
}

const CASES: Case[] = [
  { what: 'all stages ok', stages: ['ok', 'ok'], policy: 'pipefail', exit: 0, blamed: null },
  {
    what: 'pipefail blames the rightmost failure',
    stages: ['failed:2', 'failed:3', 'ok'],
    policy: 'pipefail',
    exit: 3,
    blamed: 2,
  },
  {
    what: 'first-failure blames the leftmost failure',
    stages: ['failed:2', 'failed:3', 'ok'],
    policy: 'first-failure',
    exit: 2,
    blamed: 1,
  },
  {
    what: 'last looks at the last stage only',
    stages: ['failed:2', 'ok'],
    policy: 'last',
    exit: 0,
    blamed: null,
    reason: /^policy last: satisfied; 1 non-deciding stage\(s\) did not succeed$/,
  },
  {
    what: 'last blames a failing last stage',
    stages: ['failed:2', 'failed:3'],
    policy: 'last',
    exit: 3,
    blamed: 2,
  },
  {
    what: 'a failure that is exit 0 never reads as success',
    stages: ['failed:0'],
    policy: 'pipefail',
    exit: 1,
    blamed: 1,
  },
  {
    what: 'a SIGPIPE whose reader succeeded is tolerated',
    stages: ['sigpipe', 'ok'],
    policy: 'pipefail',
    exit: 0,
    blamed: null,
  },
  {
    what: 'a chain of SIGPIPE writers before a success is tolerated',
    stages: ['sigpipe', 'sigpipe', 'ok'],
    policy: 'pipefail',
    exit: 0,
    blamed: null,
  },
  {
    what: '--sigpipe fail counts SIGPIPE as a failure',
    stages: ['sigpipe', 'ok'],
    policy: 'pipefail',
    extra: { sigpipe: 'fail' },
    exit: 141,
    blamed: 1,
  },
  {
    what: 'a SIGPIPE whose reader failed is not tolerated (pipefail: rightmost)',
    stages: ['sigpipe', 'failed:3'],
    policy: 'pipefail',
    exit: 3,
    blamed: 2,
  },
  {
    what: 'first-failure blames the reader, not the writer it killed',
    stages: ['sigpipe', 'failed:3'],
    policy: 'first-failure',
    exit: 3,
    blamed: 2,
  },
  {
    what: "the last stage's SIGPIPE is tolerated when safe-run's reader left",
    stages: ['ok', 'sigpipe'],
    policy: 'pipefail',
    extra: { stdoutReaderGone: true },
    exit: 0,
    blamed: null,
  },
  {
    what: "the last stage's SIGPIPE fails when safe-run's reader stayed",
    stages: ['ok', 'sigpipe'],
    policy: 'pipefail',
    exit: 141,
    blamed: 2,
  },
  {
    what: 'a signal nobody expected gives 128+n',
    stages: ['signaled', 'ok'],
    policy: 'pipefail',
    exit: 139,
    blamed: 1,
    reason: /killed by SIGSEGV/,
  },
  {
    what: 'a time limit gives 124 whatever else failed',
    stages: ['failed:3', 'timeout'],
    policy: 'first-failure',
    exit: 124,
    blamed: 2,
  },
  {
    what: 'a time limit decides even under policy last',
    stages: ['timeout', 'ok'],
    policy: 'last',
    exit: 124,
    blamed: 1,
  },
  { what: 'an output cap gives 153', stages: ['limit', 'ok'], policy: 'pipefail', exit: 153, blamed: 1 },
  {
    what: 'stages cancelled by --fail-fast are consequences, not causes',
    stages: ['cancelled', 'failed:3'],
    policy: 'pipefail',
    exit: 3,
    blamed: 2,
  },
  {
    what: 'a stage that could not start gives 127 and nothing started',
    stages: ['not-started', 'skipped'],
    policy: 'pipefail',
    exit: 127,
    blamed: 1,
    reason: /^preflight: .*nothing was started$/,
  },
  {
    what: 'pipefail blames the rightmost stage that could not start',
    stages: ['not-started:127', 'not-started:126'],
    policy: 'pipefail',
    exit: 126,
    blamed: 2,
  },
  {
    what: 'first-failure blames the leftmost stage that could not start',
    stages: ['not-started:127', 'not-started:126'],
    policy: 'first-failure',
    exit: 127,
    blamed: 1,
  },
  {
    what: 'an optional stage that failed does not decide',
    stages: ['failed:3?', 'ok'],
    policy: 'pipefail',
    exit: 0,
    blamed: null,
    reason: /^policy pipefail: satisfied$/,
  },
  {
    what: 'an optional stage that cannot start still fails the run',
    stages: ['not-started?', 'skipped'],
    policy: 'pipefail',
    exit: 127,
    blamed: 1,
  },
  {
    what: 'a signal to safe-run gives 128+n and blames nobody',
    stages: ['cancelled', 'cancelled'],
    policy: 'pipefail',
    extra: { interruptedBy: { signal: 'SIGINT', number: 2 } },
    exit: 130,
    blamed: null,
  },
  {
    what: 'a time limit that fired after the stages exited gives 124',
    stages: ['ok', 'ok'],
    policy: 'pipefail',
    extra: { timeLimit: 'the pipeline timeout (1.00s)' },
    exit: 124,
    blamed: null,
    reason: /fired after the stages had exited/,
  },
];

describe('decideVerdict', () => {
  it.each(CASES)('$what', (c) => {
    const verdict = decideVerdict(stages(...c.stages), input(c.policy, c.extra));
    expect({ exit: verdict.exitCode, blamed: verdict.blamedStage, ok: verdict.ok }).toEqual({
      exit: c.exit,
      blamed: c.blamed,
      ok: c.exit === 0,
    });
    if (c.reason) expect(verdict.reason).toMatch(c.reason);
  });

  it('names the policy and the blamed stage in the reason', () => {
    const verdict = decideVerdict(stages('ok', 'failed:4'), input('pipefail'));
    expect(verdict.reason).toBe('policy pipefail: stage 2 "stage2" failed with exit 4');
  });

  it('says why a stopped stage was stopped', () => {
    const stopped = stageResult(1, 'timeout', {
      stop: {
        reason: 'the stage timeout (2.00s)',
        cause: { kind: 'stage-timeout', limitMs: 2000 },
        afterMs: 2000,
        signals: ['SIGTERM'],
        snapshot: [],
        deadlock: null,
        waitingForStage: null,
      },
    });
    expect(decideVerdict([stopped], input('pipefail')).reason).toBe(
      'stage 1 "stage1" was stopped: the stage timeout (2.00s)',
    );
  });
});

describe('successes', () => {
  it.each([
    { stages: ['ok', 'failed'], sigpipe: 'tolerate', expected: [true, false] },
    { stages: ['sigpipe', 'sigpipe', 'ok'], sigpipe: 'tolerate', expected: [true, true, true] },
    { stages: ['sigpipe', 'sigpipe', 'failed'], sigpipe: 'tolerate', expected: [false, false, false] },
    { stages: ['sigpipe', 'ok'], sigpipe: 'fail', expected: [false, true] },
    { stages: ['skipped', 'cancelled'], sigpipe: 'tolerate', expected: [false, false] },
  ] as const)('$stages with --sigpipe $sigpipe: $expected', ({ stages: specs, sigpipe, expected }) => {
    expect(successes(stages(...specs), { ...input('pipefail'), sigpipe })).toEqual(expected);
  });
});
