import type { Marker } from '../teardown/marker.js';
import type { StageStop } from '../types.js';
import { buildHangReport, type HangReport, waitingForStage } from './hang-report.js';
import { findEscaped, findStageTrees, readTree, type StageGroup } from './read-tree.js';

// The whole run at one moment, from safe-run's own point of view (its pipes are named as its own).
// Never throws: a stop must go ahead whatever /proc says, so a failed look is an empty one.
export function snapshotRun(stages: readonly StageGroup[], marker: Marker): HangReport {
  try {
    const members = findStageTrees(stages);
    for (const [pid, stage] of findEscaped(stages, marker, new Set(members.keys()))) members.set(pid, stage);
    return buildHangReport(readTree(members, process.pid));
  } catch {
    return { processes: [], deadlock: null };
  }
}

export interface StageView {
  // True when the stage's leader had already exited (a zombie not yet reaped) when the stop came.
  exited: boolean;
  detail: Pick<StageStop, 'snapshot' | 'deadlock' | 'waitingForStage'>;
}

// The part of a run snapshot that belongs in one stage's stop record. Processes of no known stage
// (escaped and reparented) go with the first stage, so each is listed once.
export function viewStage(report: HangReport, stage: number, leader: number): StageView {
  const snapshot = report.processes.filter(
    (entry) => entry.stage === stage || (stage === 1 && entry.stage === null),
  );
  const members = new Set(snapshot.map((entry) => entry.pid));
  const deadlock = report.deadlock?.pids.some((pid) => members.has(pid)) ? report.deadlock : null;
  const exited = report.processes.find((entry) => entry.pid === leader)?.state === 'Z';
  return { exited, detail: { snapshot, deadlock, waitingForStage: waitingForStage(report, stage) } };
}
