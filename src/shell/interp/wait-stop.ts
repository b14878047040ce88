import type { OpenStop } from '../../engine/fifo-open.js';
import { interruptionCause } from '../../engine/interruption.js';
import { monotonicMs } from '../../monotonic-ms.js';
import type { RunnerApi } from './api.js';
import type { Grace, Runtime } from './runtime.js';

// What ends a wait of the shell's own (a FIFO's open, a read of a pipe): the run's time limit or stop;
// in an EXIT trap that runs after a stop, the end of the trap's time instead (the run's stop came
// already); in a background job, also the job's stop (`kill %1`).
export function waitStop(r: RunnerApi): Promise<OpenStop> {
  const { rt } = r;
  const base = graced(rt, r.place) ? rt.grace!.stop : rt.openStop;
  const { job } = r.place;
  if (!job) return base;
  const stopped = job.stopped.then(
    (stop): OpenStop => ({ as: 'cancelled', cause: interruptionCause(stop), afterMs: sinceStart(rt) }),
  );
  return Promise.race([base, stopped]);
}

// Whether an EXIT trap about to run comes after a stop of the run (its time limit, a signal, another
// of safe-run's own limits; not a refusal): it then runs, as bash's does when `timeout` or a CI runner
// sends it SIGTERM, for --kill-after at most, counted from the first such trap.
export function afterStop(rt: Runtime): boolean {
  const kind = rt.stoppedBy?.kind;
  if ((rt.cancelled === null && kind !== 'limit' && kind !== 'time') || rt.refused) return false;
  rt.grace ??= newGrace(rt);
  return true;
}

// Whether commands run in such a trap, with time left for it: the stop does not end them.
export function graced(rt: Runtime, place: { afterStop?: true }): boolean {
  return place.afterStop === true && rt.grace !== null && monotonicMs() < rt.grace.until;
}

function newGrace(rt: Runtime): Grace {
  const ms = rt.settings.killAfterMs;
  let settle: (stop: OpenStop) => void = () => {};
  const stop = new Promise<OpenStop>((resolve) => {
    settle = resolve;
  });
  const grace: Grace = {
    until: monotonicMs() + ms,
    stop,
    end: () => {
      grace.until = 0;
      clearTimeout(timer);
      settle({ as: 'timeout', cause: { kind: 'pipeline-timeout', limitMs: ms }, afterMs: sinceStart(rt) });
    },
  };
  const timer = setTimeout(grace.end, ms);
  timer.unref();
  return grace;
}

function sinceStart(rt: Runtime): number {
  const { limitSince } = rt.io;
  return limitSince === undefined ? 0 : Math.round(monotonicMs() - limitSince);
}
