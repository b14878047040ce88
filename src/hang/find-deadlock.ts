import type { DeadlockKind } from '../types.js';
import type { Analysis } from './analyze.js';
import type { TreeData } from './graph-types.js';
import { threadsOf } from './holders.js';
import type { ProcView, ThreadView } from './proc-view.js';

// Whether this look can prove a deadlock at all: a claim rests on who does NOT hold the other end of
// a pipe or socket, and a process that runs while its files are read may be passing that very pipe on
// unseen (moving it to another fd, accepting the connection a moment later). So every member must
// stand still: each thread off the CPU in a call (or stopped), its run mark and fds readable, and
// a second reading, once made, must find none moved (src/hang/settle.ts). Anything else and the look
// claims nothing; each process still gets its sentence, and a later look may prove it. An exited process holds
// nothing and cannot move; the reading process itself, when its own tree is read, is only reading.
export function provable(data: TreeData): boolean {
  if (!data.complete || (data.unsettled?.length ?? 0) > 0) return false;
  return data.members.every((view) => view.pid === process.pid || standsStill(view));
}

function standsStill(view: ProcView): boolean {
  const live = liveThreads(view);
  return live.length === 0 || (view.fds !== null && live.every(offCpu));
}

// Its threads that have not exited (a main thread may exit before the others).
export function liveThreads(view: ProcView): ThreadView[] {
  return threadsOf(view).filter((thread) => thread.state !== 'Z' && thread.state !== 'X');
}

// /proc/PID/syscall names a call only for a thread off the CPU; a stopped thread may be in none.
function offCpu(thread: ThreadView): boolean {
  if (thread.runMark === null) return false;
  const inCall = thread.syscall !== null && thread.syscall !== 'running';
  return inCall || thread.state === 'T' || thread.state === 't';
}

// The processes that wait only for one another. In this wait-for graph a process goes on when any
// one of its wakers acts (a reader reads, a writer writes, a child exits, a holder unlocks), so a
// deadlock is a set in which every member is blocked and every waker of every member is itself in
// the set: the largest such set is found by removing, until nothing changes, every process with a
// way out.
export function findDeadlocked(analyses: readonly Analysis[]): Set<number> {
  const stuck = new Map(analyses.filter((entry) => !entry.external).map((entry) => [entry.view.pid, entry]));
  for (let changed = true; changed; ) {
    changed = false;
    for (const [pid, entry] of stuck) {
      if (entry.wakers.length === 0 || entry.wakers.some((waker) => !stuck.has(waker))) {
        stuck.delete(pid);
        changed = true;
      }
    }
  }
  return new Set(stuck.keys());
}

// The members in the order they wait on each other, starting from a parent that waits (the way a
// person reads it: "50 waits for 51; 51 waits for 50").
export function orderCycle(analyses: readonly Analysis[], members: Set<number>): number[] {
  const byPid = new Map(analyses.map((entry) => [entry.view.pid, entry]));
  const sorted = [...members].sort((a, b) => a - b);
  const first = sorted.find((pid) => ['child'].includes(byPid.get(pid)?.wait ?? '')) ?? sorted[0];
  const order: number[] = [];
  let at = first;
  while (at !== undefined && !order.includes(at)) {
    order.push(at);
    at = byPid.get(at)?.wakers.find((waker) => members.has(waker) && !order.includes(waker));
  }
  for (const pid of sorted) if (!order.includes(pid)) order.push(pid);
  return order;
}

// How the deadlock can be broken: output nobody reads comes first (reading it frees everyone), then
// a socket both ends read, then a pipe whose writer never closes it, then locks.
export function deadlockKind(analyses: readonly Analysis[], members: Set<number>): DeadlockKind {
  const calls = analyses
    .filter((entry) => members.has(entry.view.pid))
    .flatMap((entry) => [entry.main, ...entry.threads]);
  if (calls.some((call) => call.wait === 'unread-output')) return 'unread-output';
  const reads = calls.filter((call) => call.wait === 'input' || call.wait === 'own-pipe');
  if (reads.some((call) => call.open?.kind === 'socket')) return 'silent-peer';
  if (reads.length > 0) return 'unclosed-input';
  if (calls.some((call) => call.wait === 'lock')) return 'lock';
  return 'children';
}
