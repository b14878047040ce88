import { closeSync, existsSync, openSync, readdirSync, readSync } from 'node:fs';
import { type Marker, markerEntry } from './marker.js';
import type { ProcWindow } from './proc-window.js';

export interface ProcInfo {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  // One letter from /proc/PID/stat: R running, S sleeping, D uninterruptible, T stopped, Z zombie...
  state: string;
  // The argv joined with spaces, or the kernel's short name when there is no argv (zombies, kernel threads).
  command: string;
  // Start time in clock ticks since boot: tells a reused pid from the process seen before.
  start: number;
}

// Processes come and go while we read; every read below treats "gone" and "not ours to read" as absent.
// One growing buffer serves every read, so a scan allocates almost nothing.
let shared = Buffer.allocUnsafe(64 * 1024);

// Reads a whole file into the shared buffer and returns its length, or -1 when it cannot be read.
// The bytes stay valid until the next call.
function readShared(path: string): number {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return -1;
  }
  try {
    let length = 0;
    for (;;) {
      if (length === shared.length) {
        const bigger = Buffer.allocUnsafe(shared.length * 2);
        shared.copy(bigger, 0, 0, length);
        shared = bigger;
      }
      const room = shared.length - length;
      const count = readSync(fd, shared, length, room, null);
      length += count;
      // /proc files (seq_file, environ, cmdline) fill the whole request unless they reach the end, so
      // a short read means the end, and saves a read that would return 0.
      if (count < room) return length;
    }
  } catch {
    return -1;
  } finally {
    closeSync(fd);
  }
}

// A /proc file as text, or null when the process is gone or not ours to read.
export function readText(path: string): string | null {
  const length = readShared(path);
  return length < 0 ? null : shared.toString('utf8', 0, length);
}

// False where there is no /proc (macOS): every scan then finds nothing, and reports should say that
// escaped processes and pipe holders were not looked for.
export function hasProc(): boolean {
  return existsSync('/proc/self/stat');
}

export function listPids(): number[] {
  const pids: number[] = [];
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return pids;
  }
  for (const name of names) {
    const code = name.charCodeAt(0);
    if (code >= 48 && code <= 57) pids.push(Number(name));
  }
  // Newest first: a process that forks and exits faster than a scan (a "hopping" daemon) hands its
  // marker to a child with a higher pid, which a scan in ascending order reaches too late.
  return pids.sort((a, b) => b - a);
}

type StatFields = Omit<ProcInfo, 'command'> & { comm: string; flags: number };

// Task flags from /proc/PID/stat (include/linux/sched.h).
const PF_EXITING = 0x4;
const PF_KTHREAD = 0x200000;

function readStat(pid: number): StatFields | null {
  const text = readText(`/proc/${pid}/stat`);
  if (!text) return null;
  // The name sits in parentheses and may itself contain spaces and parentheses: cut at the last ')'.
  const close = text.lastIndexOf(')');
  const fields = text.slice(close + 2).split(' ');
  if (close < 0 || fields.length < 20) return null;
  return {
    pid,
    ppid: Number(fields[1]),
    pgid: Number(fields[2]),
    sid: Number(fields[3]),
    state: fields[0]!,
    start: Number(fields[19]),
    flags: Number(fields[6]),
    comm: text.slice(text.indexOf('(') + 1, close),
  };
}

function withCommand(stat: StatFields): ProcInfo {
  const length = readShared(`/proc/${stat.pid}/cmdline`);
  let end = length;
  while (end > 0 && shared[end - 1] === 0) end--;
  const argv = end > 0 ? shared.toString('utf8', 0, end).replaceAll('\0', ' ') : '';
  const { comm, flags, ...rest } = stat;
  return { ...rest, command: argv || comm };
}

export function readProcess(pid: number): ProcInfo | null {
  const stat = readStat(pid);
  return stat ? withCommand(stat) : null;
}

export function listProcesses(): ProcInfo[] {
  const found: ProcInfo[] = [];
  for (const pid of listPids()) {
    const info = readProcess(pid);
    if (info) found.push(info);
  }
  return found;
}

// True when the NUL-separated environment block in shared[0, length) has exactly this entry.
function hasEntry(length: number, entry: Buffer): boolean {
  const block = shared.subarray(0, length);
  for (let at = block.indexOf(entry); at >= 0; at = block.indexOf(entry, at + 1)) {
    if (at === 0 || block[at - 1] === 0) {
      const after = at + entry.length;
      if (after === length || block[after] === 0) return true;
    }
  }
  return false;
}

export interface FindQuery {
  // Processes whose environment holds NAME=value exactly.
  marker?: Marker;
  // Processes in one of these process groups, marked or not (a stage may clear its environment).
  pgids?: readonly number[];
  exclude?: readonly number[];
  // Where the run's processes can be (forked since it began); absent or null: every process. A
  // marker's own window is used when this is absent.
  window?: ProcWindow | null;
}

export interface ProcScan {
  // Living processes (zombies left out) that match the query, the scanning process never included.
  found: ProcInfo[];
  // User processes whose environment read empty. Between execve() installing its new memory and the
  // kernel writing the environment into it, a process shows an empty environ; a fork/exec loop's
  // children read empty 11 times in 290 here. One of them may carry the marker a moment later, so a
  // sweep must look again before it concludes that nothing is left. Kernel threads, zombies and
  // exiting processes are not listed.
  unsure: ProcInfo[];
}

// On kernels where a kernel thread's environ opens and reads empty (6.18 here refuses the open with
// ESRCH instead), remembering them saves a stat read per scan. A pid that reads non-empty later has
// been reused by a user process and is forgotten.
const kernelThreads = new Set<number>();

// With only a marker, each process costs one failed or short read of its environ; stat and cmdline
// are read for the matches only.
export function scanProcesses(query: FindQuery): ProcScan {
  const entry = query.marker ? Buffer.from(markerEntry(query.marker)) : null;
  const groups = new Set(query.pgids ?? []);
  const skip = new Set(query.exclude ?? []);
  skip.add(process.pid);
  const scan: ProcScan = { found: [], unsure: [] };
  const window = query.window ?? query.marker?.window ?? null;
  const probed = window?.candidates() ?? null;
  for (const pid of pidsToScan(probed)) {
    if (skip.has(pid)) continue;
    let stat: StatFields | null = null;
    if (groups.size > 0 || window) {
      stat = readStat(pid);
      if (!stat) continue;
      // Started before the run: none of its processes, whatever its environment says.
      if (window && stat.start < window.startTicks) continue;
    }
    if (!stat || !groups.has(stat.pgid)) {
      if (!entry) continue;
      const length = readShared(`/proc/${pid}/environ`);
      if (length < 0) continue;
      if (length === 0) {
        if (!kernelThreads.has(pid)) noteEmpty(stat ?? readStat(pid), scan);
        continue;
      }
      kernelThreads.delete(pid);
      if (!hasEntry(length, entry)) continue;
      stat ??= readStat(pid);
      if (!stat) continue;
    }
    if (stat.state === 'Z' || stat.state === 'X') continue;
    // A probed pid may be a thread's id (readdir lists only processes): its process is found as itself.
    if (probed && !leadsThreadGroup(pid)) continue;
    scan.found.push(withCommand(stat));
  }
  return scan;
}

// Probing one by one costs a failed open per unused pid; past this many, one readdir is cheaper.
const MAX_PROBES = 1024;

function pidsToScan(probed: number[] | null): number[] {
  if (probed === null) return listPids();
  if (probed.length <= MAX_PROBES) return probed;
  const wanted = new Set(probed);
  return listPids().filter((pid) => wanted.has(pid));
}

function leadsThreadGroup(pid: number): boolean {
  const text = readText(`/proc/${pid}/status`);
  return text !== null && text.includes(`\nTgid:\t${pid}\n`);
}

function noteEmpty(stat: StatFields | null, scan: ProcScan): void {
  if (!stat) return;
  if (stat.flags & PF_KTHREAD) kernelThreads.add(stat.pid);
  else if (!(stat.flags & PF_EXITING) && stat.state !== 'Z' && stat.state !== 'X') {
    scan.unsure.push(withCommand(stat));
  }
}

export function findProcesses(query: FindQuery): ProcInfo[] {
  return scanProcesses(query).found;
}

export function findByMarker(name: string, value: string): ProcInfo[] {
  return findProcesses({ marker: { name, value } });
}

export interface SyscallInfo {
  nr: number;
  // Known only for the usual blocking calls on x86_64; null elsewhere.
  name: string | null;
  // Raw hexadecimal arguments; for read/write the first one is the fd.
  args: string[];
}

export interface BlockedInfo {
  state: string;
  // Kernel function the process sleeps in (anon_pipe_write, do_wait, ...); null when running.
  wchan: string | null;
  // 'running' when not in a system call; null when /proc would not tell us.
  syscall: SyscallInfo | 'running' | null;
}

const X64_SYSCALLS: Record<number, string> = {
  0: 'read',
  1: 'write',
  7: 'poll',
  19: 'readv',
  20: 'writev',
  23: 'select',
  34: 'pause',
  35: 'nanosleep',
  43: 'accept',
  61: 'wait4',
  202: 'futex',
  230: 'clock_nanosleep',
  232: 'epoll_wait',
  247: 'waitid',
  270: 'pselect6',
  271: 'ppoll',
  281: 'epoll_pwait',
};

// What a stuck process is waiting for, for "why is it stuck" reports; null once it is gone.
export function describeBlocked(pid: number): BlockedInfo | null {
  const stat = readStat(pid);
  if (!stat) return null;
  const wchan = readText(`/proc/${pid}/wchan`)?.trim();
  const raw = readText(`/proc/${pid}/syscall`)?.trim();
  let syscall: BlockedInfo['syscall'] = null;
  if (raw === 'running') syscall = 'running';
  else if (raw && /^\d+ /.test(raw)) {
    const [nr, ...args] = raw.split(' ');
    const number = Number(nr);
    const name = process.arch === 'x64' ? (X64_SYSCALLS[number] ?? null) : null;
    // Six arguments, then the stack and instruction pointers, which nobody reading a report needs.
    syscall = { nr: number, name, args: args.slice(0, 6) };
  }
  return { state: stat.state, wchan: wchan && wchan !== '0' ? wchan : null, syscall };
}
