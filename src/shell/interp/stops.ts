import type { OpenStop } from '../../engine/fifo-open.js';
import { monotonicMs } from '../../monotonic-ms.js';
import { signalNumber } from '../../policy/signals.js';
import type { StepReport } from '../../types.js';
import type { Job } from './jobs-table.js';
import type { Runtime } from './runtime.js';
import { ExitSignal } from './signals.js';

// Whether the run's time limit has run out.
export function timeIsUp(rt: Runtime): boolean {
  return rt.deadline !== null && monotonicMs() >= rt.deadline;
}

// Whether the run (or the job `job` runs in) was stopped: a limit stopped a stage or a wait, safe-run
// was signalled, a step was refused, the job was killed.
export function stoppedMeanwhile(rt: Runtime, job: Job | undefined): boolean {
  return Boolean(rt.cancelled || rt.stoppedBy || rt.refused || (job?.cancelled && !job.exiting));
}

// How the commands a stop kept from running are marked.
export function stopReason(rt: Runtime): StepReport['skippedBecause'] {
  if (rt.refused) return 'after-refusal';
  if (rt.cancelled) return undefined;
  // (The time limit's own timers may fire a moment before the deadline as the text counts it.)
  const byTime = rt.stoppedBy?.kind === 'limit' && rt.stoppedBy.byTime === true;
  if (timeIsUp(rt) || rt.timedOutBefore !== null || byTime) return 'timeout';
  // Another of safe-run's own limits (idle, prompt wait, output cap) stopped a stage.
  return rt.stoppedBy !== null ? 'stopped' : undefined;
}

// A background job that was stopped (kill %N, the text's end) ends at its next command, as its
// subshell would die of the signal.
export function jobEnded(signal: NodeJS.Signals): ExitSignal {
  return new ExitSignal(128 + signalNumber(signal), 'signal');
}

// When each run last let the event loop turn: a text of builtins only (`while :; do :; done`) runs
// on promises alone, which would starve timers, signals and pipes for ever.
const lastTurn = new WeakMap<Runtime, number>();
const TURN_MS = 20;

// Lets the event loop turn (timers, the time limit, SIGTERM, output) at least every 20 ms of commands.
export async function letLoopTurn(rt: Runtime): Promise<void> {
  const now = monotonicMs();
  const last = lastTurn.get(rt);
  if (last === undefined) lastTurn.set(rt, now);
  else if (now - last >= TURN_MS) {
    await new Promise((resolve) => setImmediate(resolve));
    lastTurn.set(rt, monotonicMs());
  }
}

// A wait of the shell's own (the open of a FIFO, a read of a pipe or a terminal) that the time limit or
// a signal ended: the text ends there, as at a stage a limit stopped.
export function noteWaitStop(rt: Runtime, stop: OpenStop): void {
  if (stop.as === 'timeout') rt.stoppedBy ??= { kind: 'limit', byTime: true };
  else if (rt.cancelled) rt.stoppedBy ??= { kind: 'limit' };
}
