import { liveThreads } from './find-deadlock.js';
import type { TreeData } from './graph-types.js';
import { buildHangReport, type HangReport } from './hang-report.js';
import type { ProcView } from './proc-view.js';
import { stillSince } from './run-mark.js';

// The processes that ran since they were read, or are gone: each thread's call and run mark read
// a second time (src/hang/run-mark.ts). Exited threads and the reading process are left out.
export function movedSince(views: readonly ProcView[]): number[] {
  return views.filter((view) => !stayedStill(view)).map((view) => view.pid);
}

function stayedStill(view: ProcView): boolean {
  if (view.pid === process.pid) return true;
  return liveThreads(view).every((thread) =>
    stillSince(view.pid, thread.tid, thread.runMark, thread.state === 'T' || thread.state === 't'),
  );
}

// A look's report, whose deadlock (if any) a second reading confirms: when no member ran between its
// first reading and its second, there was a moment (after the last first reading, before the first
// second one) at which everything read held at once. Only a look that claims a deadlock is read twice.
export function settledReport(data: TreeData): { data: TreeData; report: HangReport } {
  const report = buildHangReport(data);
  if (report.deadlock === null || data.unsettled !== undefined) return { data, report };
  const settled = { ...data, unsettled: movedSince(data.members) };
  return { data: settled, report: settled.unsettled.length === 0 ? report : buildHangReport(settled) };
}
