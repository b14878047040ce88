import { formatDuration } from '../format-units.js';
import { EXIT_REQUEST, EXIT_TIMEOUT } from '../policy/verdict.js';
import type { Settings, Verdict } from '../types.js';
import { WAY_OUT } from './refuse.js';

// Why a -c run ended before one of its steps: the verdict of the whole run, what to do next, and how
// the steps after that one are marked in the report.
export interface RunStop {
  verdict: Verdict;
  next: string;
  after: 'timeout' | 'after-refusal';
}

// The time limit ran out before `step` could start: the run ends there, as a timeout, whatever the
// steps before it did.
export function timeLimitStop(timeoutMs: number, step: number): RunStop {
  return {
    verdict: {
      ok: false,
      exitCode: EXIT_TIMEOUT,
      blamedStage: null,
      reason: `the pipeline timeout (${formatDuration(timeoutMs)}) ran out before step ${step} could start`,
    },
    next: `step ${step} and the steps after it did not run because the time limit ran out first: raise --timeout if the text needs more time`,
    after: 'timeout',
  };
}

// `step` showed something safe-run does not run as bash would only once it was reached (a command
// name or an export argument that comes from an expansion, a directory an earlier step removed),
// after an earlier step started processes: those steps ran, and the run ends there with 125. Running
// the text again under --fallback bash would repeat them, so the advice is the bash stage written out.
export function refusalStop(step: number, message: string, policy: Settings['policy']): RunStop {
  const why = message.replace(/^-c: /, '').split(`; ${WAY_OUT}`)[0];
  const bash = policy === 'last' ? 'bash -c' : 'bash -o pipefail -c';
  return {
    verdict: {
      ok: false,
      exitCode: EXIT_REQUEST,
      blamedStage: null,
      reason: `step ${step} was refused: ${why}`,
    },
    next: `the steps before step ${step} ran, it and the steps after it did not: safe-run saw this only when the step was reached, too late for --fallback bash (it takes over only while no step has started a process); to run such a text, give it whole to bash as one supervised stage: safe-run -- ${bash} 'TEXT'`,
    after: 'after-refusal',
  };
}
