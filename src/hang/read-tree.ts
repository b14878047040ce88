import { readdirSync, statSync } from 'node:fs';
import type { Marker } from '../teardown/marker.js';
import { listPids, type ProcInfo, readText } from '../teardown/proc-read.js';
import { findProcesses } from '../teardown/proc-scan.js';
import type { MemberView, TreeData } from './analyze.js';
import { type ProcView, readProcView } from './proc-view.js';

export interface StageGroup {
  index: number;
  // The stage leader's pid, which is also its process group id.
  pid: number;
}

type Links = Pick<ProcInfo, 'pid' | 'ppid' | 'pgid'>;

// Parent and group of every process, from /proc/PID/stat alone: a tree is found without reading
// every command line on the machine (half the cost of a whole scan).
export function readLinks(): Links[] {
  const links: Links[] = [];
  for (const pid of listPids()) {
    const text = readText(`/proc/${pid}/stat`);
    if (!text) continue;
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    links.push({ pid, ppid: Number(fields[1]), pgid: Number(fields[2]) });
  }
  return links;
}

// Every process below `root`, root included, by parent links.
export function findTree(root: number, all: readonly Links[] = readLinks()): number[] {
  return withDescendants([root], all).sort((a, b) => a - b);
}

function withDescendants(roots: readonly number[], all: readonly Links[]): number[] {
  const children = new Map<number, number[]>();
  for (const info of all) children.set(info.ppid, [...(children.get(info.ppid) ?? []), info.pid]);
  const found = new Set<number>();
  const queue = [...roots];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    if (found.has(pid)) continue;
    found.add(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return [...found];
}

// A run's processes: its stage groups (exited leaders not yet reaped included), every process that
// carries the run's marker (escaped ones), and all their descendants; each with its stage when known.
export function findRunTree(stages: readonly StageGroup[], marker: Marker): Map<number, number | null> {
  const all = readLinks();
  const stageOfGroup = new Map(stages.map((stage) => [stage.pid, stage.index]));
  const roots = all.filter((info) => stageOfGroup.has(info.pgid)).map((info) => info.pid);
  roots.push(...findProcesses({ marker }).map((info) => info.pid));
  const byPid = new Map(all.map((info) => [info.pid, info]));
  const result = new Map<number, number | null>();
  const stageOf = (pid: number, depth = 0): number | null => {
    const info = byPid.get(pid);
    if (!info || depth > 64) return null;
    return stageOfGroup.get(info.pgid) ?? stageOf(info.ppid, depth + 1);
  };
  const pids = withDescendants(roots, all).sort((a, b) => a - b);
  for (const pid of pids) if (pid !== process.pid) result.set(pid, stageOf(pid));
  return result;
}

// Reads /proc for the members, for safe-run itself when it is the observer, and, for pipes the
// members are blocked on whose other end none of those hold, for whichever process on the machine does.
export function readTree(members: Map<number, number | null>, safeRunPid: number | null): TreeData {
  const views: MemberView[] = [];
  for (const [pid, stage] of members) {
    const view = readProcView(pid);
    if (view) views.push({ ...view, stage });
  }
  const context: ProcView[] = [];
  const self = safeRunPid === null ? null : readProcView(safeRunPid);
  if (self) context.push(self);
  const wanted = blockedPipeKeys(views).filter((key) => !otherHolderAmong([...views, ...context], key));
  if (wanted.length > 0) context.push(...findOutsideHolders(new Set(wanted), new Set(members.keys())));
  return { members: views, context, safeRunPid, safeRunStdin: safeRunPid === null ? null : stdinKey() };
}

function blockedPipeKeys(views: readonly ProcView[]): string[] {
  const keys: string[] = [];
  for (const view of views) {
    if (view.syscall === null || view.syscall === 'running' || view.syscall.fd === null) continue;
    const fd = view.syscall.fd;
    const open = view.fds?.find((entry) => entry.fd === fd);
    if (open && (open.kind === 'pipe' || open.kind === 'fifo')) keys.push(open.key);
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
