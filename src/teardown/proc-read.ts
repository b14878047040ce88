import { closeSync, existsSync, openSync, readdirSync, readSync } from 'node:fs';

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

// The bits of open's flags that say read, write or both (O_ACCMODE on Linux; Node does not export it).
export const O_ACCMODE = 0o3;

// The flags descriptor `fd` of process `pid` was opened with (octal in /proc/PID/fdinfo/FD), or null
// when the process or the descriptor is gone.
export function openFlags(pid: number | 'self', fd: number): number | null {
  const match = /flags:\s*([0-7]+)/.exec(readText(`/proc/${pid}/fdinfo/${fd}`) ?? '');
  return match ? Number.parseInt(match[1]!, 8) : null;
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
  // marker to a child with a higher pid, which a scan in ascending order reaches too late. Pids are
  // handed out upwards and wrap at pid_max, so the newest are those at or below the last one handed
  // out, then those above it (from before the wrap).
  const last = lastPid();
  const rank = (pid: number) => (pid <= last ? pid + 0x40000000 : pid);
  return pids.sort((a, b) => rank(b) - rank(a));
}

function lastPid(): number {
  const value = Number(readText('/proc/sys/kernel/ns_last_pid')?.trim());
  return Number.isSafeInteger(value) ? value : Number.MAX_SAFE_INTEGER;
}

// /proc/PID/stat alone: what a scan needs to decide before it pays for the command line.
export type StatFields = Omit<ProcInfo, 'command'> & { comm: string; flags: number };

export function readStat(pid: number): StatFields | null {
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

// Now, in the clock of a process's start time in /proc/PID/stat (ticks since boot, counted at
// USER_HZ, 100 on Linux): /proc/uptime's seconds since boot, floored. Null without it.
export function uptimeTicks(): number | null {
  const seconds = Number.parseFloat(readText('/proc/uptime') ?? '');
  return Number.isFinite(seconds) ? Math.floor(seconds * 100) : null;
}

// readStat for a pid that may well be gone (a window's pid, a stage leader already reaped): asked
// first without an exception, since a failed open makes Node build one with a stack, five times the
// cost of this check.
export function probeStat(pid: number): StatFields | null {
  return existsSync(`/proc/${pid}`) ? readStat(pid) : null;
}

export function withCommand(stat: StatFields): ProcInfo {
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

// What a process's environment says of one NAME=value entry: 'unreadable' when the process is gone or
// not ours to read, 'empty' for an environment that read empty, else whether it holds the entry.
type EnvironMatch = 'unreadable' | 'empty' | 'holds' | 'lacks';

export function matchEnviron(pid: number, entry: Buffer): EnvironMatch {
  const length = readShared(`/proc/${pid}/environ`);
  if (length < 0) return 'unreadable';
  if (length === 0) return 'empty';
  return hasEntry(length, entry) ? 'holds' : 'lacks';
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
