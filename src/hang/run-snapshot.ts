import { monotonicMs } from '../monotonic-ms.js';
import type { Marker } from '../teardown/marker.js';
import type { StageStop } from '../types.js';
import type { TreeData } from './graph-types.js';
import { buildHangReport, type HangReport, waitingForStage } from './hang-report.js';
import { completeTree, findEscaped, findStageTrees, readMembers, type StageGroup } from './read-tree.js';
import { movedSince, settledReport } from './settle.js';

// A look at a run in two steps, so that a stop never waits for the machine: first the stage groups'
// own trees (children links, a handful of /proc files per process, within a time budget), which is
// all a stop reads before its first signal; then, after the groups are signalled, what costs more
// and cannot change meanwhile (processes that left their stage, which the group signal does not
// reach, and holders of the run's pipes outside it).
interface RunLook {
  members: Map<number, number | null>;
  // What was read (data.complete is false when the budget ran out: no deadlock is claimed then).
  data: TreeData;
  report: HangReport;
}

// Reading a stage tree's processes stops after this long: a stop's first signal waits at most about
// this (a few milliseconds per process on a quiet machine; ten times that at load 25).
const FIRST_LOOK_BUDGET_MS = 200;

const empty = (): RunLook => ({
  members: new Map(),
  data: {
    members: [],
    context: [],
    safeRunPid: process.pid,
    safeRunStdin: null,
    sockets: new Map(),
    locks: new Map(),
    complete: false,
  },
  report: { processes: [], deadlock: null },
});

// Never throws: a stop must go ahead whatever /proc says, so a failed look is an empty one. A look
// that claims a deadlock is confirmed by a second reading (src/hang/settle.ts) before any signal.
export function lookAtStages(stages: readonly StageGroup[], budgetMs = FIRST_LOOK_BUDGET_MS): RunLook {
  try {
    const deadline = monotonicMs() + budgetMs;
    const members = findStageTrees(stages);
    const { views, complete } = readMembers(members, deadline);
    const first = completeTree(views, members, process.pid, { outsideHolders: false, complete });
    const { data, report } = settledReport(first);
    return { members, data, report };
  } catch {
    return empty();
  }
}

// The first look with the escaped processes and outside holders added, and the members its budget
// left unread; its own views stay as read. A member read only now may have acted on the signal (then
// it shows as exiting, which never makes a deadlock that was not there). `signalled`: the stages were
// signalled since the first look, so its members cannot be read a second time: a deadlock is claimed
// only when that look's own second reading confirmed them (it was made when it claimed one).
function completeLook(
  look: RunLook,
  stages: readonly StageGroup[],
  marker: Marker,
  signalled: boolean,
): HangReport {
  try {
    const read = new Set(look.data.members.map((view) => view.pid));
    const unread = new Map([...look.members].filter(([pid]) => !read.has(pid)));
    const escaped = findEscaped(stages, marker, new Set(look.members.keys()));
    const { views } = readMembers(new Map([...unread, ...escaped]), Number.POSITIVE_INFINITY);
    const members = new Map([...look.members, ...escaped]);
    const scope = { outsideHolders: true, complete: true };
    const data = completeTree([...look.data.members, ...views], members, process.pid, scope, look.data);
    if (!signalled) return settledReport(data).report;
    const before = look.data.unsettled ?? [...read];
    return buildHangReport({ ...data, unsettled: [...before, ...movedSince(views)] });
  } catch {
    return look.report;
  }
}

// The whole run at one moment (SIGUSR1, the heartbeat, `--on-deadlock`): both steps at once, and
// nothing signalled in between.
export function snapshotRun(stages: readonly StageGroup[], marker: Marker): HangReport {
  return completeLook(lookAtStages(stages, Number.POSITIVE_INFINITY), stages, marker, false);
}

interface StageView {
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

// A stage a stop just recorded (its record is completed in place).
interface StoppedStage {
  index: number;
  pid: number | null;
  stopDetail: StageStop | null;
}

// After a stop's first signals: the look is completed with what it did not read before them
// (processes that left their stage, holders outside the run), in the records of the stages it stopped.
export function completeStops(
  look: RunLook,
  stopped: readonly StoppedStage[],
  stages: readonly StageGroup[],
  marker: Marker,
): void {
  if (stopped.length === 0) return;
  const full = completeLook(look, stages, marker, true);
  if (full === look.report) return;
  for (const run of stopped) {
    if (run.stopDetail && run.pid !== null)
      Object.assign(run.stopDetail, viewStage(full, run.index, run.pid).detail);
  }
}
