import { readdirSync, statSync } from 'node:fs';
import { monotonicMs } from '../monotonic-ms.js';
import type { Marker } from '../teardown/marker.js';
import { listPids } from '../teardown/proc-read.js';
import { findProcesses } from '../teardown/proc-scan.js';
import type { MemberView, TreeData } from './analyze.js';
import { threadsOf } from './holders.js';
import { type LockTable, lockKey, readLocks } from './locks.js';
import { type ProcView, readProcView } from './proc-view.js';
import { readSockets } from './sockets.js';
import { findTree } from './tree-links.js';

export { findTree };

export interface StageGroup {
  index: number;
  // The stage leader's pid, which is also its process group id.
  pid: number;
}

// The run's stage leaders and all their descendants (by the kernel's children links: the cost follows
// the run's own processes, not the machine's), each with its stage.
export function findStageTrees(stages: readonly StageGroup[]): Map<number, number | null> {
  const result = new Map<number, number | null>();
  for (const stage of stages) {
    for (const pid of findTree(stage.pid))
      if (pid !== process.pid && !result.has(pid)) result.set(pid, stage.index);
  }
  return result;
}

// The processes carrying the run's marker that are not in `known` (they left their stage: setsid,
// a double fork), and their descendants; a stage is known only for one still in a stage's group.
export function findEscaped(
  stages: readonly StageGroup[],
  marker: Marker,
  known: ReadonlySet<number>,
): Map<number, number | null> {
  const stageOfGroup = new Map(stages.map((stage) => [stage.pid, stage.index]));
  const result = new Map<number, number | null>();
  for (const info of findProcesses({ marker })) {
    if (known.has(info.pid) || result.has(info.pid)) continue;
    for (const pid of findTree(info.pid)) {
      if (!known.has(pid) && pid !== process.pid) result.set(pid, stageOfGroup.get(info.pgid) ?? null);
    }
  }
  return result;
}

// How much of the machine a look may read beyond the tree itself.
interface ReadScope {
  // Look through every process on the machine for holders of a pipe whose other end no member holds
  // (a daemon that inherited it). The one read whose cost grows with the machine.
  outsideHolders: boolean;
  // False when some members could not be read in time: then no deadlock is claimed.
  complete?: boolean;
}

// The members' views, in pid order, until the deadline (monotonic ms) passes.
export function readMembers(
  members: ReadonlyMap<number, number | null>,
  deadline: number,
): { views: MemberView[]; complete: boolean } {
  const views: MemberView[] = [];
  for (const [pid, stage] of members) {
    if (monotonicMs() > deadline) return { views, complete: false };
    const view = readProcView(pid);
    if (view) views.push({ ...view, stage });
  }
  return { views, complete: true };
}

// Reads /proc for the members, for safe-run itself when it is the observer, the sockets and locks
// they wait on, and (when the scope allows) whichever process on the machine holds the other end of
// a pipe they are blocked on.
export function readTree(
  members: Map<number, number | null>,
  safeRunPid: number | null,
  scope: ReadScope = { outsideHolders: true },
): TreeData {
  const { views } = readMembers(members, Number.POSITIVE_INFINITY);
  return completeTree(views, members, safeRunPid, scope);
}

// The rest of a look, once the members' views are read.
// `prior`: an earlier look at part of the same tree, whose sockets and locks are kept as they were read
// then (a stop reads the rest after its first signal, when they may be gone).
export function completeTree(
  views: MemberView[],
  members: ReadonlyMap<number, number | null>,
  safeRunPid: number | null,
  scope: ReadScope,
  prior?: TreeData,
): TreeData {
  const context: ProcView[] = prior ? [...prior.context] : [];
  const self = safeRunPid === null || prior ? null : readProcView(safeRunPid);
  if (self) context.push(self);
  if (scope.outsideHolders) {
    const wanted = blockedPipeKeys(views).filter((key) => !otherHolderAmong([...views, ...context], key));
    if (wanted.length > 0) context.push(...findOutsideHolders(new Set(wanted), new Set(members.keys())));
  }
  const unknown = [...waitedSockets(views)].filter((inode) => !prior?.sockets.has(inode));
  const holder = views.find((view) => socketsOf(view).size > 0)?.pid ?? 0;
  const sockets = new Map([...(prior?.sockets ?? []), ...readSockets(holder, new Set(unknown))]);
  const locks =
    prior && prior.locks.size > 0 ? prior.locks : views.some(waitsForLock) ? readLocks() : new Map();
  context.push(
    ...lockHolders(views, locks, new Set([...members.keys(), ...context.map((view) => view.pid)])),
  );
  return {
    members: views,
    context,
    safeRunPid,
    safeRunStdin: safeRunPid === null ? null : stdinKey(),
    sockets,
    locks,
    complete: scope.complete ?? true,
  };
}

function socketsOf(view: ProcView): Set<number> {
  const inodes = new Set<number>();
  for (const open of view.fds ?? []) if (open.kind === 'socket') inodes.add(Number(open.key.split(':')[1]));
  return inodes;
}

// The sockets worth asking the kernel about: those of processes blocked in a read, write, accept or
// poll (a process that runs, sleeps or waits for a child is told without them). poll and select name
// no fd in their first argument, but watch sockets all the same (socketserver's listening socket).
function waitedSockets(views: readonly ProcView[]): Set<number> {
  const wanted = new Set<number>();
  for (const view of views) {
    const calls = [view.syscall, ...view.threads.map((thread) => thread.syscall)];
    const waits = calls.some(
      (call) => call !== null && call !== 'running' && (call.fd !== null || call.op === 'poll'),
    );
    if (waits) for (const inode of socketsOf(view)) wanted.add(inode);
  }
  return wanted;
}

function waitsForLock(view: ProcView): boolean {
  return [view.wchan, ...view.threads.map((thread) => thread.wchan)].some((wchan) =>
    /lock|fcntl/.test(wchan ?? ''),
  );
}

// The holders of the locks members wait for, when they are outside the tree: their commands are named.
function lockHolders(views: readonly ProcView[], locks: LockTable, known: Set<number>): ProcView[] {
  const found: ProcView[] = [];
  for (const view of views.filter(waitsForLock)) {
    for (const open of view.fds ?? []) {
      const key = lockKey(open.key);
      for (const pid of (key && locks.get(key)) || []) {
        const holder = known.has(pid) ? null : readProcView(pid);
        if (holder) found.push(holder);
        known.add(pid);
      }
    }
  }
  return found;
}

// The pipes and FIFOs members are blocked on: read or written, or watched by a poll, select or
// epoll (a pipe the process also holds on another fd is its own wake-up, and is left out).
function blockedPipeKeys(views: readonly ProcView[]): string[] {
  const keys: string[] = [];
  for (const view of views) {
    const pipe = (fd: number) => view.fds?.find((open) => open.fd === fd && /pipe|fifo/.test(open.kind));
    for (const thread of threadsOf(view)) {
      const call = thread.syscall;
      if (call === null || call === 'running') continue;
      const watched = call.op !== 'poll' ? [] : call.fd !== null ? view.epolls[call.fd] : thread.polled;
      const fds = call.op === 'poll' ? (watched ?? []) : call.fd === null ? [] : [call.fd];
      for (const open of fds.map(pipe)) {
        const own = open && view.fds?.some((other) => other.key === open.key && other.fd !== open.fd);
        if (open && !(call.op === 'poll' && own)) keys.push(open.key);
      }
    }
  }
  return keys;
}

function otherHolderAmong(views: readonly ProcView[], key: string): boolean {
  const holders = views.filter((view) => view.fds?.some((open) => open.key === key));
  return holders.length > 1;
}

// The one machine-wide pass, only for pipes whose other end is held outside the tree.
function findOutsideHolders(keys: Set<string>, skip: Set<number>): ProcView[] {
  const found: ProcView[] = [];
  for (const pid of listPids()) {
    if (skip.has(pid) || pid === process.pid || !holdsAny(pid, keys)) continue;
    const view = readProcView(pid);
    if (view) found.push(view);
  }
  return found;
}

// A cheap first look (a stat per fd) before the whole view is read.
function holdsAny(pid: number, keys: Set<string>): boolean {
  let names: string[];
  try {
    names = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  return names.some((name) => {
    try {
      const stat = statSync(`/proc/${pid}/fd/${name}`, { throwIfNoEntry: false });
      return stat !== undefined && keys.has(`${stat.dev}:${stat.ino}`);
    } catch {
      // Not ours to look at, or closed meanwhile.
      return false;
    }
  });
}

function stdinKey(): string | null {
  try {
    const stat = statSync('/proc/self/fd/0');
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return null;
  }
}
