import { fstatSync, readlinkSync } from 'node:fs';
import { findPipeHolders } from '../teardown/pipe-holders.js';
import { O_ACCMODE, openFlags } from '../teardown/proc-read.js';

// Node opens /dev/null in place of a standard descriptor the shell closed (`>&-`), with O_RDWR and
// O_CLOEXEC (measured: fdinfo flags 02100002), so a closed stdout looks like an open one and every
// byte written to it is lost without an error. A user's own `>/dev/null` is O_WRONLY and has no
// close-on-exec flag, so the two are told apart.
const O_RDWR = 0o2;
const O_CLOEXEC = 0o2000000;

export function isStdoutClosed(): boolean {
  try {
    if (readlinkSync('/proc/self/fd/1') !== '/dev/null') return false;
    const value = openFlags('self', 1);
    return value !== null && (value & O_ACCMODE) === O_RDWR && (value & O_CLOEXEC) !== 0;
  } catch {
    // No /proc: nothing to tell, as before.
    return false;
  }
}

// Under --json nothing is written to stdout until the run ends, so a reader that went away (`| true`)
// is never told by EPIPE. When stdout is a pipe, looks every `everyMs` for another process holding
// its read end, and calls `onGone` once when there is none. Returns the function that stops looking.
export function watchStdoutReader(onGone: () => void, everyMs = 1000): () => void {
  let pipe = false;
  try {
    pipe = fstatSync(1).isFIFO();
  } catch {
    pipe = false;
  }
  if (!pipe) return () => {};
  const timer = setInterval(() => {
    let holders: unknown[];
    try {
      holders = findPipeHolders(1, { end: 'read' });
    } catch {
      return;
    }
    if (holders.length > 0) return;
    clearInterval(timer);
    onGone();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
