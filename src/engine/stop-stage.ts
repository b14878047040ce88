import { formatDuration } from '../format-units.js';
import type { HangReport } from '../hang/hang-report.js';
import { viewStage } from '../hang/run-snapshot.js';
import { monotonicMs } from '../monotonic-ms.js';
import { stopReason } from '../outcome-text/render.js';
import type { LeftoverLog } from '../teardown/leftover-log.js';
import type { Marker } from '../teardown/marker.js';
import type { OwnGroups } from '../teardown/own-groups.js';
import { findProcesses } from '../teardown/proc-scan.js';
import type { Settings, StopCause } from '../types.js';
import type { StageRun } from './stage-run.js';

export type StopReason = 'timeout' | 'limit' | 'cancelled';

// A stop the supervisor decided on: the status the report gives, the first signal, and its cause.
interface StopRequest {
  reason: StopReason;
  signal: NodeJS.Signals;
  cause: StopCause;
}

// What stopping a stage needs from the supervisor.
export interface StopContext {
  settings: Settings;
  marker: Marker;
  // The run's stage groups, signalled only while provably its own.
  groups: OwnGroups;
  leftovers: LeftoverLog;
  // When the run began (monotonicMs()), for how long after it a stage was stopped.
  t0: number;
  // Stage groups sent their first signal, so that the last sweep does not send it again.
  termedGroups: Set<number>;
  // A timer the supervisor clears when the run ends.
  after(ms: number, action: () => void): void;
}

// Stops one stage: its leader if it still runs, and whatever is left in its process group (a leader
// that exited may have left children holding its pipes). SIGCONT follows the signal so a stopped
// process can act on it; SIGKILL follows after kill-after for whatever remains, and those are listed.
// `hang`: the look at the run taken for this stop, before any of its signals.
export function stopStage(run: StageRun, request: StopRequest, ctx: StopContext, hang: HangReport): void {
  if (run.pid === null) return;
  const { reason, signal, cause } = request;
  const why = stopReason(cause);
  const pgid = run.pid;
  const { groups } = ctx;
  if (!run.running && !groups.signal(pgid, 0) && !run.streamsOpen) return;
  // A leader that already exited (not yet reaped) was not stopped: its own exit status stands.
  const seen = run.running && run.stoppedAs === null ? viewStage(hang, run.index, pgid) : null;
  if (seen && !seen.exited) {
    run.stoppedAs = reason;
    const afterMs = Math.round(monotonicMs() - ctx.t0);
    run.stopDetail = { reason: why, cause, afterMs, signals: [], ...seen.detail };
  }
  run.requestStop();
  if (run.running) run.stopDetail?.signals.push(signal);
  else noteOutlivers(run, `outlived its stage; sent ${signal} (${why})`, ctx);
  groups.signal(pgid, signal);
  ctx.termedGroups.add(pgid);
  if (signal !== 'SIGKILL') groups.signal(pgid, 'SIGCONT');
  ctx.after(ctx.settings.killAfterMs, () => {
    if (!groups.owned(pgid)) return;
    const remaining = findProcesses({ pgids: [pgid], window: ctx.marker.window });
    if (remaining.length === 0) return;
    if (run.running) run.stopDetail?.signals.push('SIGKILL');
    noteOutlivers(
      run,
      `still running ${formatDuration(ctx.settings.killAfterMs)} after ${signal}; killed with SIGKILL`,
      ctx,
      remaining,
    );
    groups.signal(pgid, 'SIGKILL');
  });
}

// Members of a stage's group other than its leader are leftovers once the leader is gone or they
// needed SIGKILL: list them, or add to what is already said about them.
function noteOutlivers(
  run: StageRun,
  how: string,
  ctx: StopContext,
  members = ctx.groups.owned(run.pid!) ? findProcesses({ pgids: [run.pid!], window: ctx.marker.window }) : [],
): void {
  for (const info of members) {
    if (info.pid !== run.pid) ctx.leftovers.tell(info, run.spec.name, how);
  }
}
