import { monotonicMs } from '../../monotonic-ms.js';
import type { StepReport } from '../../types.js';
import type { Runtime } from './runtime.js';

// Whether the run's time limit has run out.
export function timeIsUp(rt: Runtime): boolean {
  return rt.deadline !== null && monotonicMs() >= rt.deadline;
}

// How the commands a stop kept from running are marked.
export function stopReason(rt: Runtime): StepReport['skippedBecause'] {
  if (rt.refused) return 'after-refusal';
  if (rt.cancelled) return undefined;
  if (timeIsUp(rt) || rt.timedOutBefore !== null) return 'timeout';
  // Another of safe-run's own limits (idle, prompt wait, output cap) stopped a stage.
  return rt.stoppedBy !== null ? 'stopped' : undefined;
}
