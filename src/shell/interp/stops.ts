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
  return timeIsUp(rt) || rt.timedOutBefore !== null ? 'timeout' : undefined;
}
