import { readdirSync, readlinkSync, statSync } from 'node:fs';
import { readProcess, readText } from '../teardown/proc-read.js';
import { openedPath, polledFds } from './proc-mem.js';
import { runMarkOf } from './run-mark.js';
import { type DecodedCall, decodeSyscall } from './syscalls.js';

type FdKind = 'pipe' | 'fifo' | 'file' | 'terminal' | 'socket' | 'other';

export interface OpenFd {
  fd: number;
  kind: FdKind;
  // "device:inode": the same pipe seen from two processes has the same key, whatever its link text.
  key: string;
  // The /proc/PID/fd link text: pipe:[123], /dev/pts/3, /tmp/x (deleted), socket:[45], anon_inode:[eventpoll].
  link: string;
  end: 'read' | 'write' | 'both';
}

// What /proc says about one process, raw: the graph and the sentences are built from this alone.
export interface ProcView {
  pid: number;
  ppid: number;
  pgid: number;
  command: string;
  state: string;
  wchan: string | null;
  // null: the kernel would not say (no permission, no such file on this kernel).
  syscall: DecodedCall | 'running' | null;
  // The path an open in progress was given, and the fds a poll or select watches (from its memory).
  path: string | null;
  polled: number[] | null;
  // null: the fd table could not be read.
  fds: OpenFd[] | null;
  // For each epoll instance it has, the fds it watches for input (fdinfo "tfd:" lines), by epoll fd.
  epolls: Record<number, number[]>;
  // The main thread's run mark (see ThreadView.runMark).
  runMark: number | null;
  // Its other threads (the main one, tid = pid, is the process's own state, wchan and syscall above).
  threads: ThreadView[];
}

// One thread of a process, from /proc/PID/task/TID: a thread that drains a pipe or spins keeps a
// process going while its main thread waits.
export interface ThreadView {
  tid: number;
  // The thread's name (comm): the program's name unless the thread set its own.
  name: string;
  state: string;
  wchan: string | null;
  syscall: DecodedCall | 'running' | null;
  path: string | null;
  polled: number[] | null;
  // How much it has run (src/hang/run-mark.ts), read before anything else of its process: the same
  // mark read again after the look proves it never ran in between (src/hang/settle.ts). null: unreadable.
  runMark: number | null;
}

// One process, or null once it is gone. Each file is read once; a process exiting halfway leaves
// the fields it had.
export function readProcView(pid: number): ProcView | null {
  const info = readProcess(pid);
  if (!info) return null;
  // Every thread's mark first, so that whatever is read after (the fds above all) lies inside the
  // stretch a second reading checks.
  const marks = new Map(listTasks(pid).map((tid) => [tid, runMarkOf(pid, tid)]));
  const main = readThread(pid, pid, marks.get(pid) ?? null);
  const fds = readFds(pid);
  const epolls: Record<number, number[]> = {};
  for (const open of fds ?? []) {
    if (open.link === 'anon_inode:[eventpoll]') epolls[open.fd] = watchedFds(pid, open.fd);
  }
  return {
    pid,
    ppid: info.ppid,
    pgid: info.pgid,
    command: info.command,
    state: main?.state ?? info.state,
    wchan: main?.wchan ?? null,
    syscall: main?.syscall ?? null,
    path: main?.path ?? null,
    polled: main?.polled ?? null,
    fds,
    epolls,
    runMark: main?.runMark ?? null,
    threads: readThreads(pid, marks),
  };
}

// One thread's state and call: three small reads (its stat, wait channel and syscall).
function readThread(pid: number, tid: number, runMark: number | null): ThreadView | null {
  const dir = `/proc/${pid}/task/${tid}`;
  const stat = readText(`${dir}/stat`);
  if (!stat) return null;
  const close = stat.lastIndexOf(')');
  const wchan = readText(`${dir}/wchan`)?.trim() ?? null;
  const raw = readText(`${dir}/syscall`);
  const syscall = raw === null || raw === '' ? null : decodeSyscall(raw);
  const call = syscall === null || syscall === 'running' ? null : syscall;
  return {
    tid,
    name: stat.slice(stat.indexOf('(') + 1, close),
    state: stat.slice(close + 2, close + 3),
    wchan: wchan && wchan !== '0' ? wchan : null,
    syscall,
    path: call ? openedPath(tid, call) : null,
    polled: call ? polledFds(tid, call) : null,
    runMark,
  };
}

function listTasks(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    return [];
  }
}

// Every thread is read, however many: a deadlock is claimed only when none of them can go on. A
// thread started after the marks were read is not: its start needed a thread that ran, which the
// second reading sees.
function readThreads(pid: number, marks: ReadonlyMap<number, number | null>): ThreadView[] {
  const threads: ThreadView[] = [];
  for (const [tid, mark] of marks) {
    if (tid === pid) continue;
    const thread = readThread(pid, tid, mark);
    if (thread) threads.push(thread);
  }
  return threads.sort((a, b) => a.tid - b.tid);
}

function readFds(pid: number): OpenFd[] | null {
  let names: string[];
  try {
    names = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return null;
  }
  const fds: OpenFd[] = [];
  for (const name of names) {
    const open = readFd(pid, Number(name));
    if (open) fds.push(open);
  }
  return fds.sort((a, b) => a.fd - b.fd);
}

function readFd(pid: number, fd: number): OpenFd | null {
  try {
    const path = `/proc/${pid}/fd/${fd}`;
    const link = readlinkSync(path);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return null;
    const kind = kindOf(link, stat);
    // Which end matters for pipes alone (a socket is both; a file's is never asked): one read saved.
    const end = kind === 'pipe' || kind === 'fifo' ? endOf(pid, fd) : 'both';
    return { fd, kind, key: `${stat.dev}:${stat.ino}`, link, end };
  } catch {
    // Closed between readdir and stat.
    return null;
  }
}

function kindOf(link: string, stat: { isFIFO(): boolean; isCharacterDevice(): boolean }): FdKind {
  if (link.startsWith('pipe:')) return 'pipe';
  if (link.startsWith('socket:')) return 'socket';
  // A named pipe, safe-run's own included (opened, then unlinked: "/dir/name (deleted)").
  if (stat.isFIFO()) return 'fifo';
  if (stat.isCharacterDevice() && /^\/dev\/(pts\/|tty|console)/.test(link)) return 'terminal';
  if (link.startsWith('/')) return 'file';
  return 'other';
}

// fdinfo's "flags:" is octal open(2) flags; the low two bits are the access mode.
function endOf(pid: number, fd: number): OpenFd['end'] {
  const flags = /flags:\s*([0-7]+)/.exec(readText(`/proc/${pid}/fdinfo/${fd}`) ?? '');
  const mode = flags ? Number.parseInt(flags[1]!, 8) & 3 : 2;
  return mode === 0 ? 'read' : mode === 1 ? 'write' : 'both';
}

// An epoll fd's fdinfo has one "tfd: N events: MASK ..." line per watched fd (MASK in hex). Only fds
// watched for input count (EPOLLIN 0x1, EPOLLPRI 0x2, EPOLLRDHUP 0x2000): a stream an event loop has
// paused is left registered with a mask without them, or removed.
function watchedFds(pid: number, epfd: number): number[] {
  const text = readText(`/proc/${pid}/fdinfo/${epfd}`) ?? '';
  return [...text.matchAll(/^tfd:\s*(\d+)\s+events:\s*([0-9a-f]+)/gm)]
    .filter((match) => (Number.parseInt(match[2]!, 16) & 0x2003) !== 0)
    .map((match) => Number(match[1]));
}
