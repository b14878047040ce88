import type { DeadlockKind } from '../types.js';
import type { Analysis } from './analyze.js';

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
