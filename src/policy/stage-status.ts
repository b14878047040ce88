import type { StageStatus } from '../types.js';
import { signalNumber } from './signals.js';

interface StageEnding {
  exitCode: number | null;
  signal: string | null;
  // Why safe-run itself stopped the stage, when it did.
  stoppedAs: 'timeout' | 'limit' | 'cancelled' | null;
}

// One status per stage, from how it ended. A stage safe-run stopped is reported by the reason it was
// stopped, whatever signal finished it; only signals safe-run did not send count as `signaled`.
export function classifyEnding(ending: StageEnding, okCodes: readonly number[]): StageStatus {
  if (ending.stoppedAs !== null) return ending.stoppedAs;
  // A death by signal n is accepted when the user listed 128+n, the number a shell shows for it.
  if (ending.signal !== null && okCodes.includes(128 + signalNumber(ending.signal))) return 'ok';
  if (ending.signal === 'SIGPIPE') return 'sigpipe';
  if (ending.signal !== null) return 'signaled';
  return okCodes.includes(ending.exitCode ?? -1) ? 'ok' : 'failed';
}
