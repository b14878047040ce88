import { fstatSync, readdirSync, statSync } from 'node:fs';
import { listPids, type ProcInfo, readProcess, readText } from './proc-read.js';

type PipeEnd = 'read' | 'write' | 'any';

interface PipeHolder extends ProcInfo {
  // The holder's descriptors that are the wanted end of the pipe.
  fds: number[];
}

interface HolderQuery {
  // Pids to look at first (the run's marked processes): when one of them holds the pipe, the rest of
  // the machine is not scanned.
  candidates?: readonly number[];
  // Which end to look for; an O_RDWR descriptor counts as both. Default: 'write', the end that keeps
  // our read end from seeing EOF.
  end?: PipeEnd;
}

// Names the other processes that hold the pipe or FIFO whose end `fd` is, so a stage whose output never
// closes can say who keeps it open. A FIFO's descriptor reads as "/path (deleted)" in /proc/PID/fd, so
// descriptors are matched by device and inode, never by link text.
export function findPipeHolders(fd: number, query: HolderQuery = {}): PipeHolder[] {
  return findHoldersOf(fstatSync(fd, { bigint: true }), query);
}

// The same for a pipe safe-run no longer holds any end of, known by its device and inode.
export function findHoldersOf(target: { dev: bigint; ino: bigint }, query: HolderQuery = {}): PipeHolder[] {
  const end = query.end ?? 'write';
  const checked = new Set([process.pid]);
  const scan = (pids: readonly number[]) => {
    const holders: PipeHolder[] = [];
    for (const pid of pids) {
      if (checked.has(pid)) continue;
      checked.add(pid);
      const fds = matchingFds(pid, target.dev, target.ino, end);
      const info = fds.length > 0 ? readProcess(pid) : null;
      if (info) holders.push({ ...info, fds });
    }
    return holders;
  };
  const first = scan(query.candidates ?? []);
  return first.length > 0 ? first : scan(listPids());
}

function matchingFds(pid: number, dev: bigint, ino: bigint, end: PipeEnd): number[] {
  let names: string[];
  try {
    names = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return [];
  }
  const fds: number[] = [];
  for (const name of names) {
    try {
      const stat = statSync(`/proc/${pid}/fd/${name}`, { bigint: true, throwIfNoEntry: false });
      if (stat?.ino === ino && stat.dev === dev && holdsEnd(pid, name, end)) fds.push(Number(name));
    } catch {
      // The descriptor or the process went away between readdir and stat.
    }
  }
  return fds;
}

// fdinfo's "flags:" is octal open(2) flags; the low two bits are the access mode.
function holdsEnd(pid: number, fd: string, end: PipeEnd): boolean {
  if (end === 'any') return true;
  const flags = /flags:\s*([0-7]+)/.exec(readText(`/proc/${pid}/fdinfo/${fd}`) ?? '');
  if (!flags) return false;
  const mode = Number.parseInt(flags[1]!, 8) & 3;
  return mode === 2 || mode === (end === 'write' ? 1 : 0);
}
