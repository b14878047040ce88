import type { Analysis } from './analyze.js';

// The processes that wait only for one another. In this wait-for graph a process goes on when any
// one of its wakers acts (a reader reads, a writer writes, a child exits), so a deadlock is a set in
// which every member is blocked and every waker of every member is itself in the set: the largest
// such set is found by removing, until nothing changes, every process with a way out.
export function findDeadlocked(analyses: readonly Analysis[]): Set<number> {
  const stuck = new Map(
    analyses
      .filter((entry) => entry.blocked !== null && !entry.external)
      .map((entry) => [entry.view.pid, entry]),
  );
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
  const first =
    sorted.find((pid) => ['wait', 'poll'].includes(byPid.get(pid)?.blocked?.op ?? '')) ?? sorted[0];
  const order: number[] = [];
  let at = first;
  while (at !== undefined && !order.includes(at)) {
    order.push(at);
    at = byPid.get(at)?.wakers.find((waker) => members.has(waker) && !order.includes(waker));
  }
  for (const pid of sorted) if (!order.includes(pid)) order.push(pid);
  return order;
}
