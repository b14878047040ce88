import fs from 'node:fs';
import { type OpenStop, openTarget } from './fifo-open.js';

// Names under which a process opens one of its own descriptors: a redirection to `/dev/stdout` is
// the stage's stdout as redirected so far, not safe-run's. bash opens the name in the child, where the
// kernel resolves it to that descriptor; safe-run opens redirections for the child, so it resolves
// the name itself, against the stage's slots.
const NAMED: Record<string, number> = { '/dev/stdin': 0, '/dev/stdout': 1, '/dev/stderr': 2 };
// O_ACCMODE (Linux): the bits of open's flags that say read, write or both; Node does not export it.
const ACCMODE = 3;
const NUMBERED = /^(?:\/dev\/fd|\/proc\/self\/fd|\/proc\/thread-self\/fd)\/(\d+)$/;

// The descriptor `file` names, or null for any other path.
export function stdioAlias(file: string): number | null {
  const named = NAMED[file];
  if (named !== undefined) return named;
  const numbered = NUMBERED.exec(file);
  return numbered ? Number(numbered[1]) : null;
}

// The stage's descriptor `n`, opened again as the kernel opens /proc/self/fd/N: the same pipe (as a
// copy of the end, when it is the end asked for: a FIFO's reopened read end would wait for a writer
// that may be gone, where a pipe's does not), or the same file opened anew with the redirection's
// flags (O_TRUNC truncates it). A descriptor the stage will not have fails as the kernel fails it.
export async function openAlias(
  n: number,
  // The stage's stdin, stdout and stderr so far (apply-redirects.ts's StdioSlot).
  fds: readonly (number | 'inherit' | 'ignore')[],
  flags: number,
  stop: Promise<OpenStop> | null,
): Promise<{ fd: number; opened: boolean } | OpenStop> {
  const slot = n <= 2 ? fds[n] : undefined;
  if (slot === undefined) throw Object.assign(new Error(`no descriptor ${n}`), { code: 'ENOENT' });
  if (slot === 'ignore') return fresh(await openTarget('/dev/null', flags, stop));
  // The stage inherits safe-run's own descriptor n: opening safe-run's is opening the stage's.
  if (slot === 'inherit') return fresh(await openTarget(`/proc/self/fd/${n}`, flags, stop));
  if (fs.fstatSync(slot).isFIFO() && accessMode(slot) === (flags & ACCMODE)) {
    return { fd: slot, opened: false };
  }
  return fresh(await openTarget(`/proc/self/fd/${slot}`, flags, stop));
}

function fresh(fd: number | OpenStop): { fd: number; opened: boolean } | OpenStop {
  return typeof fd === 'number' ? { fd, opened: true } : fd;
}

// O_RDONLY, O_WRONLY or O_RDWR, as the descriptor was opened.
function accessMode(fd: number): number {
  const flags = /flags:\s*([0-7]+)/.exec(fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'));
  return flags ? Number.parseInt(flags[1]!, 8) & ACCMODE : -1;
}
