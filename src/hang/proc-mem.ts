import { closeSync, openSync, readlinkSync, readSync } from 'node:fs';
import type { DecodedCall } from './syscalls.js';

// A blocked call's arguments that point into the process's memory: the path an open waits on, the
// fds a poll or select watches. /proc/PID/mem needs the same ptrace access as /proc/PID/syscall
// (our own descendants, as the same user); where it is refused the answer is null, not a guess.
function readMemory(pid: number, address: bigint, length: number): Buffer | null {
  if (address === 0n || length <= 0) return null;
  let fd: number;
  try {
    fd = openSync(`/proc/${pid}/mem`, 'r');
  } catch {
    return null;
  }
  try {
    const buffer = Buffer.alloc(length);
    const count = readSync(fd, buffer, 0, length, address);
    return buffer.subarray(0, count);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

const AT_FDCWD = -100;
const PATH_MAX = 4096;

// The path an open/openat in progress was given, made absolute from the process's cwd or dirfd.
export function openedPath(pid: number, call: DecodedCall): string | null {
  const at = call.name === 'open' ? { dir: AT_FDCWD, word: 0 } : { dir: call.args[0]!, word: 1 };
  if (call.name !== 'open' && call.name !== 'openat' && call.name !== 'openat2') return null;
  const bytes = readMemory(pid, call.words[at.word] ?? 0n, PATH_MAX);
  const end = bytes?.indexOf(0) ?? -1;
  if (!bytes || end < 0) return null;
  const path = bytes.toString('utf8', 0, end);
  if (path.startsWith('/')) return path;
  const base = at.dir === AT_FDCWD ? 'cwd' : `fd/${at.dir}`;
  try {
    return `${readlinkSync(`/proc/${pid}/${base}`)}/${path}`;
  } catch {
    return path;
  }
}

// The fds a poll/ppoll (an array of struct pollfd: int fd, short events, short revents) or a
// select/pselect6 (fd_set bitmaps for reading and writing) watches.
export function polledFds(pid: number, call: DecodedCall): number[] | null {
  if (call.name === 'poll' || call.name === 'ppoll') {
    const count = Math.min(call.args[1] ?? 0, 1024);
    const bytes = readMemory(pid, call.words[0] ?? 0n, count * 8);
    if (!bytes || bytes.length < count * 8) return null;
    const fds: number[] = [];
    for (let i = 0; i < count; i += 1) {
      const fd = bytes.readInt32LE(i * 8);
      if (fd >= 0) fds.push(fd);
    }
    return fds;
  }
  if (call.name === 'select' || call.name === 'pselect6') {
    const nfds = Math.min(call.args[0] ?? 0, 1024);
    const fds = new Set<number>();
    for (const word of [1, 2]) {
      const bytes = readMemory(pid, call.words[word] ?? 0n, Math.ceil(nfds / 8));
      for (let fd = 0; bytes && fd < nfds; fd += 1) if (bytes[fd >> 3]! & (1 << (fd & 7))) fds.add(fd);
    }
    return [...fds].sort((a, b) => a - b);
  }
  return null;
}
