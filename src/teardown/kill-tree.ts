import { setTimeout as delay } from 'node:timers/promises';
import { assertMarker, type Marker } from './marker.js';
import { type ProcInfo, type ProcScan, readProcess, scanProcesses } from './proc-scan.js';

// How a process carrying the marker relates to the stage groups it was signalled around.
export type Escape = 'own-group' | 'setsid' | 'other-group';

export interface SignalledProcess extends ProcInfo {
  how: Escape;
}

export interface Terminated extends SignalledProcess {
  // The strongest signal it was sent.
  signal: 'SIGTERM' | 'SIGKILL';
  // Still there after SIGKILL and the settle time: usually stuck in the kernel (state D).
  survived: boolean;
}

const SWEEP_ROUNDS = 100;

let ownPgid: number | null = null;

function assertGroup(pgid: number): void {
  ownPgid ??= readProcess(process.pid)?.pgid ?? process.pid;
  // kill(0) and kill(-1) would signal our own group or every process we may signal.
  if (!Number.isInteger(pgid) || pgid <= 1) throw new RangeError(`${pgid} is not a process group id`);
  if (pgid === ownPgid) throw new RangeError(`refusing to signal safe-run's own process group ${pgid}`);
}

// Sends a signal; false when the target is gone (ESRCH) or not ours (EPERM).
function send(target: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(target, signal);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ESRCH' || code === 'EPERM') return false;
    throw error;
  }
}

// Returns the groups that still existed and were signalled.
export function killGroups(pgids: readonly number[], signal: NodeJS.Signals): number[] {
  for (const pgid of pgids) assertGroup(pgid);
  return pgids.filter((pgid) => send(-pgid, signal));
}

// Stages are spawned detached, so each stage group is also a session (pgid = sid): a process whose
// session is none of them left through setsid, itself or by an ancestor. Without groups to compare
// against, only a session leader is known to have called setsid.
export function classifyEscape(info: ProcInfo, groups: readonly number[]): Escape {
  if (groups.includes(info.pgid)) return 'own-group';
  const leftSession = groups.length > 0 ? !groups.includes(info.sid) : info.sid === info.pid;
  return leftSession ? 'setsid' : 'other-group';
}

const identity = (info: ProcInfo) => `${info.pid}:${info.start}`;

// A scan that finds nobody new ends a sweep only if no process in it was caught mid-exec with an
// empty environment (see ProcScan.unsure). Each such process earns two more looks; one whose
// environment stays empty simply has none.
function unsureTracker(): (scan: ProcScan) => boolean {
  const looks = new Map<string, number>();
  return (scan) => {
    let again = false;
    for (const info of scan.unsure) {
      const count = (looks.get(identity(info)) ?? 0) + 1;
      looks.set(identity(info), count);
      if (count <= 2) again = true;
    }
    return again;
  };
}

const EXEC_PAUSE_MS = 5;
const pauseCell = new Int32Array(new SharedArrayBuffer(4));

// sweepMarked stays synchronous so that it can run in an exit path; it waits for an exec this way.
function pauseSync(ms: number): void {
  Atomics.wait(pauseCell, 0, 0, ms);
}

export interface SweepOptions {
  name: string;
  value: string;
  signal: NodeJS.Signals;
  // The stage groups, to tell 'own-group' from escapes.
  groups?: readonly number[];
  exclude?: readonly number[];
}

// Signals every process carrying the marker, scanning again until a scan finds nobody new: processes
// fork while we sweep, and a single pass (GitHub's runner) misses their children.
export function sweepMarked(options: SweepOptions): SignalledProcess[] {
  const marker = { name: options.name, value: options.value };
  assertMarker(marker);
  const seen = new Set<string>();
  const lookAgain = unsureTracker();
  const signalled: SignalledProcess[] = [];
  for (let round = 0; round < SWEEP_ROUNDS; round++) {
    const scan = scanProcesses({ marker, exclude: options.exclude });
    const fresh = scan.found.filter((p) => !seen.has(identity(p)));
    if (fresh.length === 0) {
      if (!lookAgain(scan)) break;
      pauseSync(EXEC_PAUSE_MS);
      continue;
    }
    for (const info of fresh) {
      seen.add(identity(info));
      if (send(info.pid, options.signal)) {
        signalled.push({ ...info, how: classifyEscape(info, options.groups ?? []) });
      }
    }
  }
  return signalled;
}

export interface TerminateOptions {
  pgids: readonly number[];
  marker: Marker;
  // Grace between SIGTERM and SIGKILL.
  killAfterMs: number;
  // After SIGKILL, how long to wait for processes to vanish before reporting them as survivors.
  settleMs?: number;
  exclude?: readonly number[];
}

// SIGTERM to every stage group and marked process, up to killAfterMs for them to go, then SIGKILL to
// whatever remains, sweeping until nothing new appears. Returns every process it signalled; the
// caller knows which of them were stage leaders.
export async function terminate(options: TerminateOptions): Promise<Terminated[]> {
  assertMarker(options.marker);
  const groups = [...options.pgids];
  for (const pgid of groups) assertGroup(pgid);
  const inGroup = new Set(groups);
  // Reading every process's stat to find group members doubles a scan's cost; a group that no longer
  // exists (kill -0 says ESRCH) needs no such reading. Marked members are found by the marker anyway.
  const targets = () => {
    const pgids = groups.filter((pgid) => send(-pgid, 0));
    return scanProcesses({ marker: options.marker, pgids, exclude: options.exclude });
  };
  const lookAgain = unsureTracker();
  const results = new Map<string, Terminated>();
  const note = (info: ProcInfo, signal: Terminated['signal']) => {
    const known = results.get(identity(info));
    if (known) known.signal = signal;
    else results.set(identity(info), { ...info, how: classifyEscape(info, groups), signal, survived: false });
  };

  // Group members are listed before the group signal, which cannot tell us whom it reached. Marked
  // processes inside the groups are left to the group signal so none gets SIGTERM twice.
  // Processes caught mid-exec here are handled by the polling below, which sees them alive.
  let fresh = targets().found;
  killGroups(groups, 'SIGTERM');
  for (let round = 0; fresh.length > 0 && round < SWEEP_ROUNDS; round++) {
    for (const info of fresh) {
      if (inGroup.has(info.pgid) || send(info.pid, 'SIGTERM')) note(info, 'SIGTERM');
    }
    fresh = targets().found.filter((p) => !results.has(identity(p)));
  }

  const graceEnds = Date.now() + options.killAfterMs;
  let pause = 5;
  for (;;) {
    const scanStarted = Date.now();
    const scan = targets();
    if (scan.found.length === 0 && !lookAgain(scan)) return [...results.values()];
    const scanMs = Date.now() - scanStarted;
    const remaining = graceEnds - Date.now();
    if (remaining <= 0) break;
    // Short pauses first, as most processes die at once on SIGTERM, growing to 100 ms; on a machine
    // so busy that a scan is slow, scanning takes at most a tenth of the wait.
    pause = Math.min(pause * 2, 100);
    await delay(Math.min(Math.max(pause, scanMs * 10), remaining));
  }

  const killed = new Set<string>();
  const settleEnds = Date.now() + (options.settleMs ?? 1000);
  for (;;) {
    const scan = targets();
    const left = scan.found;
    const fresh = left.filter((p) => !killed.has(identity(p)));
    killGroups(groups, 'SIGKILL');
    for (const info of fresh) {
      killed.add(identity(info));
      if (inGroup.has(info.pgid) || send(info.pid, 'SIGKILL')) note(info, 'SIGKILL');
    }
    if (left.length === 0 && !lookAgain(scan)) break;
    if (fresh.length === 0) {
      if (Date.now() >= settleEnds) {
        for (const info of left) {
          note(info, 'SIGKILL');
          results.get(identity(info))!.survived = true;
        }
        break;
      }
      await delay(20);
    }
  }
  return [...results.values()];
}
