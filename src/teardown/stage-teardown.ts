import { setTimeout as delay } from 'node:timers/promises';

// What teardown needs to know of a stage: its group (the leader's pid, null when it never started)
// and its name for the leftovers log.
export interface StageGroup {
  readonly pid: number | null;
  readonly spec: { readonly name: string };
}

import type { Leftover } from '../types.js';
import { killGroups, sweepMarked, terminate } from './kill-tree.js';
import type { Marker } from './marker.js';
import { findPipeHolders } from './pipe-holders.js';
import { findProcesses, type ProcInfo, readProcess } from './proc-scan.js';

export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    killGroups([pgid], signal);
  } catch {
    // a pgid that is not a stage group is never signalled
  }
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

function describeEscape(how: string, why: string): string {
  if (how === 'setsid') return `${why}; left its stage's session (setsid)`;
  if (how === 'other-group') return `${why}; left its stage's process group`;
  return why;
}

// Every process still in a stage's group or carrying the run's marker: killed (SIGTERM, then SIGKILL
// after kill-after) or, with --leftovers keep, only listed.
export async function dealWithLeftovers(
  runs: readonly StageGroup[],
  marker: Marker,
  killAfterMs: number,
  keep: boolean,
  why: string,
): Promise<Leftover[]> {
  const pgids = runs.filter((run) => run.pid !== null).map((run) => run.pid!);
  if (keep) {
    return findProcesses({ marker, pgids }).map((info) => ({
      pid: info.pid,
      command: info.command,
      stage: stageOf(info, runs),
      how: why,
      action: 'kept' as const,
    }));
  }
  const killed = await terminate({ pgids, marker, killAfterMs });
  return killed.map((info) => ({
    pid: info.pid,
    command: info.command,
    stage: stageOf(info, runs),
    how: describeEscape(info.how, why),
    action: info.survived ? ('kept' as const) : ('killed' as const),
  }));
}

// A zombie has finished dying: only its parent's wait is missing (PID 1 here may reap late).
function alive(pid: number): boolean {
  const info = readProcess(pid);
  return info !== null && info.state !== 'Z' && info.state !== 'X';
}

function send(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // gone already
  }
}

// Stops exactly these processes (the holders of one stage's pipes), leaving other stages alone.
export async function killProcesses(
  holders: readonly ProcInfo[],
  runs: readonly StageGroup[],
  killAfterMs: number,
  why: string,
): Promise<Leftover[]> {
  for (const holder of holders) send(holder.pid, 'SIGTERM');
  const deadline = Date.now() + killAfterMs;
  while (holders.some((holder) => alive(holder.pid)) && Date.now() < deadline) await delay(20);
  const hard = holders.filter((holder) => alive(holder.pid));
  for (const holder of hard) send(holder.pid, 'SIGKILL');
  return holders.map((holder) => ({
    pid: holder.pid,
    command: holder.command,
    stage: stageOf(holder, runs),
    how: why,
    action: 'killed' as const,
  }));
}

// Signals the processes that left their stage's group (setsid, double fork) but carry the marker,
// sweeping until no new one appears. Group members are left to the group signal.
export function signalEscaped(
  runs: readonly StageGroup[],
  marker: Marker,
  signal: NodeJS.Signals,
): Leftover[] {
  const groups = runs.filter((run) => run.pid !== null).map((run) => run.pid!);
  const escaped = sweepMarked({ name: marker.name, value: marker.value, signal, groups }).filter(
    (info) => info.how !== 'own-group',
  );
  return escaped.map((info) => ({
    pid: info.pid,
    command: info.command,
    stage: stageOf(info, runs),
    how: describeEscape(info.how, 'escaped its stage'),
    action: 'killed' as const,
  }));
}

export function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
