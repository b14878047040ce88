import { setTimeout as delay } from 'node:timers/promises';
import { assertMarker, type Marker } from './marker.js';
import type { OwnGroups } from './own-groups.js';
import type { ProcInfo } from './proc-read.js';
import { type ProcScan, scanProcesses } from './proc-scan.js';
import { identity, sendSignal as send, stillThere } from './send-signal.js';

// How a process carrying the marker relates to the stage groups it was signalled around.
type Escape = 'own-group' | 'setsid' | 'other-group';

export interface SignalledProcess extends ProcInfo {
  how: Escape;
}

export interface Terminated extends SignalledProcess {
  // The strongest signal it was sent.
  signal: 'SIGTERM' | 'SIGKILL';
  // Still there after SIGKILL and the settle time: usually stuck in the kernel (state D).
  survived: boolean;
}

export const SWEEP_ROUNDS = 100;

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
export function unsureTracker(): (scan: ProcScan) => boolean {
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

interface TerminateOptions {
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

// One scan of the targets; `visit` meets each as soon as it is found.
type Targets = (visit?: (info: ProcInfo) => void) => ProcScan;

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
  // Nothing alive, nobody caught mid-exec and no group to wait for: nothing can fork a newcomer, and
  // a second look at once would find what the first found (the end of most runs).
  // The cgroup's own list has the last word on whether anything of the run is left (scans can miss a
  // hopper between generations): nothing ends while it holds a process.
  const populated = () => own?.cgroupPopulated() ?? false;
  if (sendTerm(options, own, targets, note, results) && !populated()) return [];
  const unsure = unsureTracker();
  const lookAgain = (scan: ProcScan) => unsure(scan) || populated();
  if (await graceOver(options.killAfterMs, targets, lookAgain)) return [...results.values()];
  await sendKill(options.settleMs ?? 1000, own, targets, lookAgain, note, results);
  return [...results.values()];
}

// Reading every process's stat to find group members doubles a scan's cost; a group that no longer
// exists, or is no longer ours, needs no such reading. Marked members are found by the marker anyway.
// The stage sessions count as well as the groups: a child that left its stage's group but not its
// session, its environment cleared, is found by its session id. Everything in the run's cgroup counts.
// Without a marker (the holders of one pipe), only `processes`.
function targetScanner(options: TerminateOptions, own: OwnGroups | null): Targets {
  return (visit) => {
    const pgids = own?.live() ?? [];
    const { marker, exclude } = options;
    const scan: ProcScan =
      marker || pgids.length > 0
        ? scanProcesses({ marker, pgids, sids: pgids, exclude, visit })
        : { found: [], unsure: [] };
    const seen = new Set(scan.found.map((info) => info.pid));
    const more = [...(options.processes ?? []).map(stillThere), ...(own?.inCgroup() ?? [])];
    for (const now of more) {
      if (now && !seen.has(now.pid)) {
        seen.add(now.pid);
        scan.found.push(now);
        visit?.(now);
      }
    }
    return scan;
  };
}

// Group members are listed before the group signal, which cannot tell us whom it reached; processes
// inside the groups are left to the group signal so none gets SIGTERM twice. Processes caught
// mid-exec here are handled by the polling that follows, which sees them alive. True when there was
// nothing at all to signal: no target, no group, nobody mid-exec.
function sendTerm(
  options: TerminateOptions,
  own: OwnGroups | null,
  targets: Targets,
  note: (info: ProcInfo, signal: Terminated['signal']) => void,
  results: Map<string, Terminated>,
): boolean {
  const termedGroups = new Set(options.alreadyTermed?.pgids ?? []);
  const termed = new Set((options.alreadyTermed?.processes ?? []).map(identity));
  const inGroup = new Set(own?.live() ?? []);
  const term = (info: ProcInfo) => {
    if (inGroup.has(info.pgid) || termed.has(identity(info)) || send(info.pid, 'SIGTERM')) {
      note(info, 'SIGTERM');
    }
  };
  const first = targets();
  const listed = first.found;
  if (listed.length === 0 && first.unsure.length === 0 && inGroup.size === 0) return true;
  for (const pgid of inGroup) if (!termedGroups.has(pgid)) own!.signal(pgid, 'SIGTERM');
  for (const info of listed) term(info);
  for (let round = 0; listed.length > 0 && round < SWEEP_ROUNDS; round++) {
    let fresh = 0;
    targets((info) => {
      if (results.has(identity(info))) return;
      fresh += 1;
      term(info);
    });
    if (fresh === 0) break;
  }
  return false;
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
    // Members are listed before their group's signal, which cannot tell whom it reached.
    const inGroup = new Set(own?.live() ?? []);
    let fresh = 0;
    const scan = targets((info) => {
      if (killed.has(identity(info))) return;
      fresh += 1;
      killed.add(identity(info));
      if (inGroup.has(info.pgid) || send(info.pid, 'SIGKILL')) note(info, 'SIGKILL');
    });
    for (const pgid of inGroup) own!.signal(pgid, 'SIGKILL');
    own?.cgroup?.kill();
    const left = scan.found;
    if (left.length === 0 && !lookAgain(scan)) return;
    if (fresh === 0) {
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
