import { setTimeout as delay } from 'node:timers/promises';
import { assertMarker, type Marker } from './marker.js';
import type { OwnGroups } from './own-groups.js';
import type { ProcInfo } from './proc-read.js';
import { type ProcScan, scanProcesses } from './proc-scan.js';
import type { ProcWindow } from './proc-window.js';
import { identity, sendSignal as send, stillThere } from './send-signal.js';

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

// Stages are spawned detached, so each stage group is also a session (pgid = sid): a process whose
// session is none of them left through setsid, itself or by an ancestor. Without groups to compare
// against, only a session leader is known to have called setsid.
export function classifyEscape(info: ProcInfo, groups: readonly number[]): Escape {
  if (groups.includes(info.pgid)) return 'own-group';
  const leftSession = groups.length > 0 ? !groups.includes(info.sid) : info.sid === info.pid;
  return leftSession ? 'setsid' : 'other-group';
}

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
  // Leave members of `groups` alone: the caller signals those groups itself, and a second signal
  // a few milliseconds later reads as "force quit" to programs that count Ctrl-Cs.
  spareGroups?: boolean;
  exclude?: readonly number[];
  // The run's window on /proc (Marker.window).
  window?: ProcWindow | null;
}

// Signals every process carrying the marker, scanning again until a scan finds nobody new: processes
// fork while we sweep, and a single pass (GitHub's runner) misses their children.
export function sweepMarked(options: SweepOptions): SignalledProcess[] {
  const marker = { name: options.name, value: options.value };
  assertMarker(marker);
  const seen = new Set<string>();
  const lookAgain = unsureTracker();
  const signalled: SignalledProcess[] = [];
  const spared = new Set(options.groups ?? []);
  for (let round = 0; round < SWEEP_ROUNDS; round++) {
    const scan = scanProcesses({ marker, exclude: options.exclude, window: options.window });
    const fresh = scan.found.filter((p) => !seen.has(identity(p)));
    if (fresh.length === 0) {
      if (!lookAgain(scan)) break;
      pauseSync(EXEC_PAUSE_MS);
      continue;
    }
    for (const info of fresh) {
      seen.add(identity(info));
      if (options.spareGroups && spared.has(info.pgid)) continue;
      if (send(info.pid, options.signal)) {
        signalled.push({ ...info, how: classifyEscape(info, options.groups ?? []) });
      }
    }
  }
  return signalled;
}

export interface TerminateOptions {
  // Stage groups: every member is a target, while the group is provably the run's own.
  groups?: OwnGroups | null;
  // Processes carrying the run's marker are targets too; absent: only the groups and `processes`.
  marker?: Marker;
  // Exactly these processes (by pid and start time), marked or not: holders of a run's pipe.
  processes?: readonly ProcInfo[];
  // Groups and processes that were already sent SIGTERM: they get no second one, only SIGKILL.
  alreadyTermed?: { pgids: readonly number[]; processes: readonly ProcInfo[] };
  // Grace between SIGTERM and SIGKILL.
  killAfterMs: number;
  // After SIGKILL, how long to wait for processes to vanish before reporting them as survivors.
  settleMs?: number;
  exclude?: readonly number[];
}

type Targets = () => ProcScan;

// The one kill primitive: SIGTERM to every target, up to killAfterMs for them to go, then SIGKILL to
// whatever remains, sweeping until nothing new appears. Every process gets each signal at most once.
// Returns every process it signalled; `survived` is decided by looking, never assumed.
export async function terminate(options: TerminateOptions): Promise<Terminated[]> {
  if (options.marker) assertMarker(options.marker);
  const own = options.groups ?? null;
  const groups = own?.known() ?? [];
  const targets = targetScanner(options, own);
  const results = new Map<string, Terminated>();
  const note = (info: ProcInfo, signal: Terminated['signal']) => {
    const known = results.get(identity(info));
    if (known) known.signal = signal;
    else results.set(identity(info), { ...info, how: classifyEscape(info, groups), signal, survived: false });
  };
  sendTerm(options, own, targets, note, results);
  const lookAgain = unsureTracker();
  if (await graceOver(options.killAfterMs, targets, lookAgain)) return [...results.values()];
  await sendKill(options.settleMs ?? 1000, own, targets, lookAgain, note, results);
  return [...results.values()];
}

// Reading every process's stat to find group members doubles a scan's cost; a group that no longer
// exists, or is no longer ours, needs no such reading. Marked members are found by the marker anyway.
function targetScanner(options: TerminateOptions, own: OwnGroups | null): Targets {
  return () => {
    const pgids = own?.live() ?? [];
    const scan: ProcScan =
      options.marker || pgids.length > 0
        ? scanProcesses({ marker: options.marker, pgids, exclude: options.exclude })
        : { found: [], unsure: [] };
    const seen = new Set(scan.found.map((info) => info.pid));
    for (const wanted of options.processes ?? []) {
      const now = stillThere(wanted);
      if (now && !seen.has(now.pid)) scan.found.push(now);
    }
    return scan;
  };
}

// Group members are listed before the group signal, which cannot tell us whom it reached; processes
// inside the groups are left to the group signal so none gets SIGTERM twice. Processes caught
// mid-exec here are handled by the polling that follows, which sees them alive.
function sendTerm(
  options: TerminateOptions,
  own: OwnGroups | null,
  targets: Targets,
  note: (info: ProcInfo, signal: Terminated['signal']) => void,
  results: Map<string, Terminated>,
): void {
  const termedGroups = new Set(options.alreadyTermed?.pgids ?? []);
  const termed = new Set((options.alreadyTermed?.processes ?? []).map(identity));
  const inGroup = new Set(own?.live() ?? []);
  let fresh = targets().found;
  for (const pgid of inGroup) if (!termedGroups.has(pgid)) own!.signal(pgid, 'SIGTERM');
  for (let round = 0; fresh.length > 0 && round < SWEEP_ROUNDS; round++) {
    for (const info of fresh) {
      if (inGroup.has(info.pgid) || termed.has(identity(info)) || send(info.pid, 'SIGTERM')) {
        note(info, 'SIGTERM');
      }
    }
    fresh = targets().found.filter((p) => !results.has(identity(p)));
  }
}

// True when every target went within the grace.
async function graceOver(killAfterMs: number, targets: Targets, lookAgain: (scan: ProcScan) => boolean) {
  const graceEnds = Date.now() + killAfterMs;
  let pause = 5;
  for (;;) {
    const scanStarted = Date.now();
    const scan = targets();
    if (scan.found.length === 0 && !lookAgain(scan)) return true;
    const scanMs = Date.now() - scanStarted;
    const remaining = graceEnds - Date.now();
    if (remaining <= 0) return false;
    // Short pauses first, as most processes die at once on SIGTERM, growing to 100 ms; on a machine
    // so busy that a scan is slow, scanning takes at most a tenth of the wait.
    pause = Math.min(pause * 2, 100);
    await delay(Math.min(Math.max(pause, scanMs * 10), remaining));
  }
}

async function sendKill(
  settleMs: number,
  own: OwnGroups | null,
  targets: Targets,
  lookAgain: (scan: ProcScan) => boolean,
  note: (info: ProcInfo, signal: Terminated['signal']) => void,
  results: Map<string, Terminated>,
): Promise<void> {
  const killed = new Set<string>();
  const settleEnds = Date.now() + settleMs;
  for (;;) {
    const scan = targets();
    const left = scan.found;
    const fresh = left.filter((p) => !killed.has(identity(p)));
    const inGroup = new Set(own?.live() ?? []);
    for (const pgid of inGroup) own!.signal(pgid, 'SIGKILL');
    for (const info of fresh) {
      killed.add(identity(info));
      if (inGroup.has(info.pgid) || send(info.pid, 'SIGKILL')) note(info, 'SIGKILL');
    }
    if (left.length === 0 && !lookAgain(scan)) return;
    if (fresh.length === 0) {
      if (Date.now() >= settleEnds) {
        for (const info of left) {
          note(info, 'SIGKILL');
          results.get(identity(info))!.survived = true;
        }
        return;
      }
      await delay(20);
    }
  }
}
