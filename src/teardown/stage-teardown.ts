import { type SignalledProcess, type Terminated, terminate } from './kill-tree.js';
import type { LeftoverLog } from './leftover-log.js';
import type { Marker } from './marker.js';
import type { OwnGroups } from './own-groups.js';
import { findPipeHolders } from './pipe-holders.js';
import type { ProcInfo } from './proc-read.js';
import { findProcesses } from './proc-scan.js';
import { sweepMarked } from './sweep-marked.js';

// What teardown needs to know of a stage: its group (the leader's pid, null when it never started)
// and its name for the leftovers log.
interface StageGroup {
  readonly pid: number | null;
  readonly spec: { readonly name: string };
}

// Who keeps a stage's output pipes open after its leader exited (the classic hang).
export function findHolders(readFds: readonly number[], marker: Marker): ProcInfo[] {
  const candidates = findProcesses({ marker }).map((info) => info.pid);
  const seen = new Map<number, ProcInfo>();
  for (const fd of readFds) {
    try {
      for (const holder of findPipeHolders(fd, { candidates })) seen.set(holder.pid, holder);
    } catch {
      // the fd closed meanwhile: nobody holds it any more
    }
  }
  return [...seen.values()];
}

function stageOf(info: ProcInfo, runs: readonly StageGroup[]): string | null {
  const own = runs.find((run) => run.pid === info.pgid || run.pid === info.sid);
  return own ? own.spec.name : null;
}

function describeEscape(how: SignalledProcess['how'], why: string): string {
  if (how === 'setsid') return `${why}; left its stage's session (setsid)`;
  if (how === 'other-group') return `${why}; left its stage's process group`;
  return why;
}

interface LeftoverSweep {
  runs: readonly StageGroup[];
  groups: OwnGroups;
  marker: Marker;
  killAfterMs: number;
  keep: boolean;
  why: string;
  // What the supervisor already sent SIGTERM: no second one.
  alreadyTermed?: { pgids: readonly number[]; processes: readonly ProcInfo[] };
}

// Every process still in a stage's group or carrying the run's marker: killed (SIGTERM, then SIGKILL
// after kill-after) or, with --leftovers keep, only listed. Processes already in the log stay as told.
export async function dealWithLeftovers(log: LeftoverLog, sweep: LeftoverSweep): Promise<void> {
  const { runs, marker, why, groups } = sweep;
  if (sweep.keep) {
    const ids = groups.live();
    const found = findProcesses({ marker, pgids: ids, sids: ids });
    const pids = new Set(found.map((info) => info.pid));
    for (const info of [...found, ...groups.inCgroup().filter((info) => !pids.has(info.pid))])
      log.kept(info, stageOf(info, runs), why);
    return;
  }
  // What the supervisor signalled at a stop (the processes that left their stage) got its signal then.
  const alreadyTermed = {
    pgids: sweep.alreadyTermed?.pgids ?? [],
    processes: [...(sweep.alreadyTermed?.processes ?? []), ...log.signalledSoFar()],
  };
  const options = { groups, marker, killAfterMs: sweep.killAfterMs, alreadyTermed };
  for (const info of await terminate(options)) {
    log.terminated(info, stageOf(info, runs), describeEscape(info.how, why));
  }
}

// Stops exactly these processes (the holders of one stage's pipes), leaving other stages alone.
export async function killProcesses(
  log: LeftoverLog,
  holders: readonly ProcInfo[],
  sweep: { runs: readonly StageGroup[]; killAfterMs: number; why: string },
): Promise<Terminated[]> {
  // A holder signalled at a stop (it left its stage, and kept the stage's pipe) gets only SIGKILL now.
  const alreadyTermed = { pgids: [], processes: log.signalledSoFar() };
  const stopped = await terminate({ processes: holders, killAfterMs: sweep.killAfterMs, alreadyTermed });
  for (const info of stopped) log.terminated(info, stageOf(info, sweep.runs), sweep.why);
  return stopped;
}

// Signals the processes that left their stage's group (setsid, double fork) but carry the marker or
// stayed in its session, sweeping until no new one appears. Group members are left to the group signal.
export function signalEscaped(
  log: LeftoverLog,
  runs: readonly StageGroup[],
  marker: Marker,
  signal: NodeJS.Signals,
  groups: OwnGroups,
): void {
  const escaped = sweepMarked({
    name: marker.name,
    value: marker.value,
    window: marker.window,
    signal,
    groups: groups.known(),
    sessions: groups.live(),
    members: () => groups.inCgroup(),
    spareGroups: true,
  });
  for (const info of escaped)
    log.signalled(info, stageOf(info, runs), describeEscape(info.how, 'escaped its stage'));
}
