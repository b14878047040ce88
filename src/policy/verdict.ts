import type { Policy, SigpipeMode, StageResult, StageStatus, Verdict } from '../types.js';
import { shellStatus } from './signals.js';

export const EXIT_TIMEOUT = 124;
export const EXIT_REQUEST = 125;
export const EXIT_NOT_EXECUTABLE = 126;
export const EXIT_NOT_FOUND = 127;
// A stage stopped for crossing its output cap (--on-limit kill): 128 + SIGXFSZ, "file size limit exceeded".
export const EXIT_LIMIT = 153;

export interface VerdictInput {
  policy: Policy;
  sigpipe: SigpipeMode;
  // True when the reader of safe-run's own stdout went away (EPIPE): the last stage's SIGPIPE was earned.
  stdoutReaderGone: boolean;
  // Set when safe-run itself was stopped by a signal (e.g. 'SIGINT').
  interruptedBy: { signal: string; number: number } | null;
  // A time limit that fired (its description), even when every leader had already exited.
  timeLimit?: string | null;
}

type Outcome = Pick<StageResult, 'status' | 'exitCode' | 'signal' | 'optional' | 'name' | 'index' | 'error'> &
  Partial<Pick<StageResult, 'stop'>>;

// Which stages count as successes. A SIGPIPE death is tolerated when the stage reading from it
// succeeded: evaluated from the right, so a chain of early-closed writers is tolerated as a whole.
export function successes(stages: readonly Outcome[], input: VerdictInput): boolean[] {
  const result = new Array<boolean>(stages.length).fill(false);
  for (let i = stages.length - 1; i >= 0; i -= 1) {
    const stage = stages[i]!;
    if (stage.status === 'ok') result[i] = true;
    else if (stage.status === 'sigpipe' && input.sigpipe === 'tolerate') {
      result[i] = i === stages.length - 1 ? input.stdoutReaderGone : result[i + 1]!;
    }
  }
  return result;
}

function codeOf(stage: Outcome): number {
  switch (stage.status) {
    case 'timeout':
      return EXIT_TIMEOUT;
    case 'limit':
      return EXIT_LIMIT;
    case 'not-started':
      return stage.error?.exitCode ?? (stage.error?.code === 'ENOENT' ? EXIT_NOT_FOUND : EXIT_NOT_EXECUTABLE);
    default: {
      const code = shellStatus(stage.exitCode, stage.signal);
      // An exit code the user declared unacceptable must never read as success.
      return code === 0 ? 1 : code;
    }
  }
}

// The kernel refused a stage that preflight accepted: say which stages had started (and were then
// stopped by safe-run), or that none had.
function startRefused(blamed: Outcome, stages: readonly Outcome[]): string {
  const started = stages.filter((stage) => stage.status !== 'not-started' && stage.status !== 'skipped');
  if (started.length === 0) return `${describe(blamed)}: the kernel refused it; nothing else was started`;
  const which = started.map((stage) => stage.index).join(', ');
  const many = started.length > 1;
  return `${describe(blamed)}: the kernel refused it after stage${many ? 's' : ''} ${which} had started; safe-run stopped ${many ? 'them' : 'it'}`;
}

function describe(stage: Outcome): string {
  const who = `stage ${stage.index} "${stage.name}"`;
  switch (stage.status) {
    case 'failed':
      return `${who} failed with exit ${stage.exitCode}`;
    case 'signaled':
    case 'sigpipe':
      return `${who} was killed by ${stage.signal}`;
    case 'not-started':
      if (stage.error?.during === 'redirect' || stage.error?.during === 'command')
        return `${who} failed: ${stage.error.message}`;
      return `${who} could not be started (${stage.error?.code ?? 'error'})`;
    case 'timeout':
    case 'limit':
    case 'cancelled':
      return stage.stop
        ? `${who} was stopped: ${stage.stop.reason}`
        : `${who} was ${stage.status === 'cancelled' ? 'cancelled' : `stopped (${stage.status})`}`;
    default:
      return `${who} ended as ${stage.status}`;
  }
}

// Names the stages that had exited before the stop too, so nobody goes looking at them.
function timeoutReason(blamed: Outcome, stages: readonly Outcome[]): string {
  const before = stages
    .filter((stage) => !stage.stop && stage.exitCode !== null && stage.status !== 'not-started')
    .map((stage) => `stage ${stage.index} "${stage.name}" exited ${stage.exitCode} before the stop`);
  const waiting = stages
    .filter((stage) => stage !== blamed && stage.stop?.waitingForStage)
    .map(
      (stage) =>
        `stage ${stage.index} "${stage.name}" was only waiting for input from stage ${stage.stop!.waitingForStage}`,
    );
  return [describe(blamed), ...before, ...waiting].join('; ');
}

function pick(candidates: Outcome[], policy: Policy): Outcome | undefined {
  return policy === 'first-failure' ? candidates[0] : candidates[candidates.length - 1];
}

// Turns stage outcomes into one verdict and exit code, by the policy the user chose.
export function decideVerdict(stages: readonly Outcome[], input: VerdictInput): Verdict {
  const ok = successes(stages, input);
  const decisive = stages.filter((stage) => !stage.optional);
  const failing = decisive.filter((stage) => !ok[stage.index - 1] && stage.status !== 'skipped');
  const policyText = `policy ${input.policy}`;

  if (input.interruptedBy) {
    return {
      ok: false,
      exitCode: 128 + input.interruptedBy.number,
      blamedStage: null,
      reason: `safe-run was stopped by ${input.interruptedBy.signal}; running stages were cancelled`,
    };
  }
  // Nothing starts when any stage cannot, so an optional stage that cannot start fails the run too.
  // A failed redirection is a failure of that stage alone, as in bash; the others ran.
  const notStarted = stages.filter(
    (stage) =>
      stage.status === 'not-started' &&
      stage.error?.during !== 'redirect' &&
      stage.error?.during !== 'command',
  );
  if (notStarted.length > 0) {
    const blamed = pick(notStarted, input.policy)!;
    return {
      ok: false,
      exitCode: codeOf(blamed),
      blamedStage: blamed.index,
      reason:
        blamed.error?.during === 'start'
          ? startRefused(blamed, stages)
          : `preflight: ${describe(blamed)}; nothing was started`,
    };
  }
  const timedOut = failing.filter((stage) => stage.status === 'timeout');
  if (timedOut.length > 0) {
    // A stage that was only waiting for input from an earlier one is a consequence, not the cause.
    const working = timedOut.filter((stage) => !stage.stop?.waitingForStage);
    const blamed = pick(working.length > 0 ? working : timedOut, input.policy)!;
    return {
      ok: false,
      exitCode: EXIT_TIMEOUT,
      blamedStage: blamed.index,
      reason: timeoutReason(blamed, stages),
    };
  }
  if (input.timeLimit) {
    return {
      ok: false,
      exitCode: EXIT_TIMEOUT,
      blamedStage: null,
      reason: `${input.timeLimit} fired after the stages had exited; processes they left behind were stopped`,
    };
  }

  const considered = input.policy === 'last' ? failing.filter((s) => s.index === stages.length) : failing;
  // Stages cancelled because another failed (--fail-fast) are consequences, not causes.
  const causes = considered.filter((stage) => stage.status !== 'cancelled');
  // The leftmost failure is the cause, unless it is a writer killed by SIGPIPE because its reader
  // failed: then the reader is the cause.
  const direct =
    input.policy === 'first-failure' ? causes.filter((stage) => stage.status !== 'sigpipe') : causes;
  const pool = direct.length > 0 ? direct : causes.length > 0 ? causes : considered;
  const blamed = pick(pool, input.policy);
  if (!blamed) {
    const shown = failing.length > 0 ? `; ${failing.length} non-deciding stage(s) did not succeed` : '';
    return { ok: true, exitCode: 0, blamedStage: null, reason: `${policyText}: satisfied${shown}` };
  }
  return {
    ok: false,
    exitCode: codeOf(blamed),
    blamedStage: blamed.index,
    reason: `${policyText}: ${describe(blamed)}`,
  };
}

export function isStopStatus(status: StageStatus): boolean {
  return status === 'timeout' || status === 'limit' || status === 'cancelled';
}
