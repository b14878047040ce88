import { type Outcome, stageOutcome, startRefusedReason, timeoutReason } from '../outcome-text/render.js';
import { WORDINGS } from '../outcome-text/wordings.js';
import type { CancelSource, Policy, SigpipeMode, Verdict } from '../types.js';
import { shellStatus } from './signals.js';

const EXIT_TIMEOUT = 124;
export const EXIT_REQUEST = 125;
const EXIT_NOT_EXECUTABLE = 126;
const EXIT_NOT_FOUND = 127;
// A stage stopped for crossing its output cap (--on-limit kill): 128 + SIGXFSZ, "file size limit exceeded".
const EXIT_LIMIT = 153;

export interface VerdictInput {
  policy: Policy;
  sigpipe: SigpipeMode;
  // True when the reader of safe-run's own stdout went away (EPIPE): the last stage's SIGPIPE was earned.
  stdoutReaderGone: boolean;
  // Set when safe-run itself was stopped by a signal (e.g. 'SIGINT').
  interruptedBy: { signal: string; number: number; by?: CancelSource } | null;
  // A time limit that fired (its reason), even when every leader had already exited.
  timeLimit?: string | null;
}

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

function pick(candidates: Outcome[], policy: Policy): Outcome | undefined {
  return policy === 'first-failure' ? candidates[0] : candidates[candidates.length - 1];
}

// Turns stage outcomes into one verdict and exit code, by the policy the user chose. The rules are
// tried in order; the first that applies decides.
export function decideVerdict(stages: readonly Outcome[], input: VerdictInput): Verdict {
  const ok = successes(stages, input);
  const decisive = stages.filter((stage) => !stage.optional);
  // By position: a step of a -c text is judged with its stages numbered across the whole run.
  const failing = decisive.filter((stage) => !ok[stages.indexOf(stage)] && stage.status !== 'skipped');
  return (
    interrupted(input) ??
    notStarted(stages, input) ??
    timedOut(failing, stages, input) ??
    lateTimeLimit(input) ??
    byPolicy(failing, stages, input)
  );
}

function interrupted(input: VerdictInput): Verdict | null {
  if (!input.interruptedBy) return null;
  return {
    ok: false,
    exitCode: 128 + input.interruptedBy.number,
    blamedStage: null,
    reason: WORDINGS.verdict.interrupted(input.interruptedBy.signal, input.interruptedBy.by),
  };
}

// Nothing starts when any stage cannot, so an optional stage that cannot start fails the run too.
// A failed redirection is a failure of that stage alone, as in bash; the others ran.
function notStarted(stages: readonly Outcome[], input: VerdictInput): Verdict | null {
  const refused = stages.filter(
    (stage) =>
      stage.status === 'not-started' &&
      stage.error?.during !== 'redirect' &&
      stage.error?.during !== 'command',
  );
  if (refused.length === 0) return null;
  const blamed = pick(refused, input.policy)!;
  return {
    ok: false,
    exitCode: codeOf(blamed),
    blamedStage: blamed.index,
    reason:
      blamed.error?.during === 'start'
        ? startRefusedReason(blamed, stages)
        : WORDINGS.verdict.preflight(stageOutcome(blamed)),
  };
}

function timedOut(failing: Outcome[], stages: readonly Outcome[], input: VerdictInput): Verdict | null {
  const stopped = failing.filter((stage) => stage.status === 'timeout');
  if (stopped.length === 0) return null;
  // A stage that was only waiting for input from an earlier one is a consequence, not the cause.
  const working = stopped.filter((stage) => !stage.stop?.waitingForStage);
  const blamed = pick(working.length > 0 ? working : stopped, input.policy)!;
  return {
    ok: false,
    exitCode: EXIT_TIMEOUT,
    blamedStage: blamed.index,
    reason: timeoutReason(blamed, stages),
  };
}

function lateTimeLimit(input: VerdictInput): Verdict | null {
  if (!input.timeLimit) return null;
  return {
    ok: false,
    exitCode: EXIT_TIMEOUT,
    blamedStage: null,
    reason: WORDINGS.verdict.lateTimeLimit(input.timeLimit),
  };
}

function byPolicy(failing: Outcome[], stages: readonly Outcome[], input: VerdictInput): Verdict {
  const considered = input.policy === 'last' ? failing.filter((s) => s === stages.at(-1)) : failing;
  // Stages cancelled because another failed (--fail-fast) are consequences, not causes.
  const causes = considered.filter((stage) => stage.status !== 'cancelled');
  // The leftmost failure is the cause, unless it is a writer killed by SIGPIPE because its reader
  // failed: then the reader is the cause.
  const direct =
    input.policy === 'first-failure' ? causes.filter((stage) => stage.status !== 'sigpipe') : causes;
  const pool = direct.length > 0 ? direct : causes.length > 0 ? causes : considered;
  const blamed = pick(pool, input.policy);
  if (!blamed) {
    const reason = WORDINGS.verdict.satisfied(input.policy, failing.length);
    return { ok: true, exitCode: 0, blamedStage: null, reason };
  }
  return {
    ok: false,
    exitCode: codeOf(blamed),
    blamedStage: blamed.index,
    reason: WORDINGS.verdict.byPolicy(input.policy, stageOutcome(blamed)),
  };
}
