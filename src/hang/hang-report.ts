import type { BlockedProcess, Deadlock } from '../types.js';
import { type Analysis, analyzeProcess, type TreeData } from './analyze.js';
import { describeCall, type ExplainContext, explainDeadlock, explainProcess } from './explain.js';
import { deadlockKind, findDeadlocked, orderCycle, provable } from './find-deadlock.js';
import type { CallAnalysis } from './graph-types.js';
import { indexHolders } from './holders.js';

// What `inspect` prints and what a stop records: one entry per process, and the deadlock if any.
export interface HangReport {
  processes: BlockedProcess[];
  deadlock: Deadlock | null;
}

// Pure: from what was read in /proc to the wait-for graph and its sentences. What was read is taken
// as one moment when provable() says it can be (src/hang/settle.ts confirms it for a look that claims).
export function buildHangReport(data: TreeData): HangReport {
  const index = indexHolders([...data.members, ...data.context]);
  const analyses = data.members.map((view) => analyzeProcess(view, data, index));
  const byPid = new Map(analyses.map((entry) => [entry.view.pid, entry]));
  const deadlocked = provable(data) ? findDeadlocked(analyses) : new Set<number>();
  const ctx: ExplainContext = { data, byPid, deadlocked };
  const processes = analyses.map((entry) => toEntry(entry, ctx));
  if (deadlocked.size === 0) return { processes, deadlock: null };
  const order = orderCycle(analyses, deadlocked);
  const kind = deadlockKind(analyses, deadlocked);
  return { processes, deadlock: { pids: order, kind, explanation: explainDeadlock(order, ctx) } };
}

function toEntry(entry: Analysis, ctx: ExplainContext): BlockedProcess {
  const { view, lead } = entry;
  const thread = (call: CallAnalysis) => ({
    tid: call.tid,
    name: call.name,
    state: view.threads.find((t) => t.tid === call.tid)?.state ?? '?',
    blocked: call.blocked,
    wait: call.wait,
    explanation: describeCall(call, entry, ctx),
  });
  return {
    pid: view.pid,
    ppid: view.ppid,
    stage: view.stage,
    command: view.command,
    role: entry.role,
    state: view.state,
    wchan: view.wchan,
    blocked: lead.blocked,
    peers: lead.peers,
    wait: entry.wait,
    threads: entry.threads.length > 0 ? entry.threads.map(thread) : null,
    explanation: explainProcess(entry, ctx),
  };
}

// The earlier stage a stage was only waiting for input from, or null when it was working or stuck on
// its own account: every living process of the stage reads a pipe written only by that stage, or
// waits for a child of its own that does.
export function waitingForStage(report: HangReport, stage: number): number | null {
  const own = report.processes.filter((entry) => entry.stage === stage && entry.state !== 'Z');
  if (own.length === 0) return null;
  const ownPids = new Set(own.map((entry) => entry.pid));
  let from: number | null = null;
  for (const entry of own) {
    const op = entry.blocked?.op;
    if (
      (op === 'wait' || op === 'poll') &&
      report.processes.some((other) => ownPids.has(other.pid) && other.ppid === entry.pid)
    )
      continue;
    if (op !== 'read' || !entry.peers || entry.peers.length === 0) return null;
    const stages = new Set(
      entry.peers.map((peer) => report.processes.find((other) => other.pid === peer.pid)?.stage ?? null),
    );
    const only = stages.size === 1 ? [...stages][0] : null;
    if (only === null || only === undefined || only >= stage || (from !== null && from !== only)) return null;
    from = only;
  }
  return from;
}
