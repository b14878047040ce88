import fs from 'node:fs';
import path from 'node:path';
import { O_ACCMODE, openFlags } from '../teardown/proc-read.js';
import { type OpenStop, openTarget } from './fifo-open.js';

// Names under which a process opens one of its own descriptors: a redirection to `/dev/stdout` is
// the stage's stdout as redirected so far, not safe-run's. bash opens the name in the child, where the
// kernel resolves it to that descriptor; safe-run opens redirections for the child, so it resolves
// the name itself, against the stage's slots.
const NAMED: Record<string, number> = { '/dev/stdin': 0, '/dev/stdout': 1, '/dev/stderr': 2 };
// Symbolic links followed before giving up, as the kernel's limit.
const MAX_HOPS = 40;

// The descriptor `file` (absolute, or relative to the stage's directory already joined) names, or
// null for any other file. Any spelling counts (/dev//stdout, /dev/./stderr, `cd /dev; >stdout`, a link
// to /dev/stdout): the directory part is resolved as the kernel resolves it, and a final symbolic
// link is followed. /dev/fd and /proc/self resolve to safe-run's own /proc entry here.
export function stdioAlias(file: string): number | null {
  let target = file;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    // A trailing slash demands a directory: the open fails, as under bash.
    if (target.endsWith('/')) return null;
    let dir: string;
    try {
      dir = fs.realpathSync(path.dirname(target));
    } catch {
      return null;
    }
    const full = path.join(dir, path.basename(target));
    const named = aliasAt(full);
    if (named !== null) return named;
    let link: string;
    try {
      link = fs.readlinkSync(full);
    } catch {
      return null;
    }
    target = path.isAbsolute(link) ? link : path.join(dir, link);
  }
  return null;
}

// `full` is canonical but for its last part: /dev/std*, or a descriptor under this process's /proc
// entry (what /proc/self, /proc/thread-self on the main thread and /dev/fd resolve to). A number
// written with a leading zero names no descriptor, as in /proc.
function aliasAt(full: string): number | null {
  const named = NAMED[full];
  if (named !== undefined) return named;
  const own = String(process.pid);
  const match = /^\/proc\/(\d+)(?:\/task\/(\d+))?\/fd\/(0|[1-9]\d*)$/.exec(full);
  if (!match || match[1] !== own || (match[2] !== undefined && match[2] !== own)) return null;
  return Number(match[3]);
}

// The stage's descriptor `n`, opened again as the kernel opens /proc/self/fd/N: the same pipe (as a
// copy of the end, when it is the end asked for: a FIFO's reopened read end would wait for a writer
// that may be gone, where a pipe's does not), or the same file opened anew with the redirection's
// flags (O_TRUNC truncates it). A descriptor the stage will not have fails as the kernel fails it.
export async function openAlias(
  n: number,
  // The stage's descriptors so far (apply-redirects.ts's StdioSlot; 'ignore' above 2: not open).
  fds: readonly (number | 'inherit' | 'ignore')[],
  flags: number,
  stop: Promise<OpenStop> | null,
): Promise<{ fd: number; opened: boolean } | OpenStop> {
  const slot = fds[n];
  if (slot === undefined || (n > 2 && slot === 'ignore'))
    throw Object.assign(new Error(`no descriptor ${n}`), { code: 'ENOENT' });
  if (slot === 'ignore') return fresh(await openTarget('/dev/null', flags, stop));
  // The stage inherits safe-run's own descriptor n: opening safe-run's is opening the stage's.
  if (slot === 'inherit') return fresh(await openTarget(`/proc/self/fd/${n}`, flags, stop));
  const mode = openFlags('self', slot);
  if (fs.fstatSync(slot).isFIFO() && mode !== null && (mode & O_ACCMODE) === (flags & O_ACCMODE)) {
    return { fd: slot, opened: false };
  }
  return fresh(await openTarget(`/proc/self/fd/${slot}`, flags, stop));
}

function fresh(fd: number | OpenStop): { fd: number; opened: boolean } | OpenStop {
  return typeof fd === 'number' ? { fd, opened: true } : fd;
}
