import fs from 'node:fs';
import { monotonicMs } from '../monotonic-ms.js';
import type { Interruption, Settings, StopCause } from '../types.js';
import { interruptionCause } from './interruption.js';
import { closeQuietly } from './kernel-pipes.js';

// Why a stage's redirection stopped waiting for a FIFO's other end: the run's time limit ran out,
// or safe-run was asked to stop.
export interface OpenStop {
  as: 'timeout' | 'cancelled';
  cause: StopCause;
  afterMs: number;
}

// What ends the waits of the stages' FIFO redirections: a signal to safe-run or the run's time
// limit, counted from the run's start (the stages' own timers start only once all are spawned).
export function openStopper(
  interrupt: Promise<Interruption>,
  settings: Settings,
  t0: number,
): { stop: Promise<OpenStop>; dispose(): void } {
  let timer: NodeJS.Timeout | undefined;
  const afterMs = () => Math.round(monotonicMs() - t0);
  const limit = new Promise<OpenStop>((resolve) => {
    const { timeoutMs } = settings;
    if (timeoutMs === null) return;
    const left = Math.max(0, timeoutMs - (monotonicMs() - t0));
    const cause: StopCause = { kind: 'pipeline-timeout', limitMs: timeoutMs };
    timer = setTimeout(() => resolve({ as: 'timeout', cause, afterMs: afterMs() }), left);
  });
  const cancel = interrupt.then(
    (interruption): OpenStop => ({
      as: 'cancelled',
      cause: interruptionCause(interruption),
      afterMs: afterMs(),
    }),
  );
  return { stop: Promise.race([limit, cancel]), dispose: () => clearTimeout(timer) };
}

// Opens `file` for a redirection. A FIFO's open waits on libuv's pool for its other end, where no
// time limit or signal reaches it and Node cannot exit until it returns: it is raced with `stop`,
// and a stopped wait is ended by holding the other end (releaseOpen), then both are closed. The FIFO
// is first pinned (an O_PATH descriptor of it, which opens nothing) and opened through that: a wait
// can then still be released after its name was removed or replaced (`rm fifo` by another process
// while safe-run waited: nothing could reach the waiting open, and safe-run never exited).
export async function openTarget(
  file: string,
  flags: number,
  stop: Promise<OpenStop> | null,
): Promise<number | OpenStop> {
  const pinned = stop ? pinFifo(file) : null;
  if (pinned === null) return openAsync(file, flags);
  const opening = openAsync(pinned.via, flags);
  const first = await Promise.race([opening, stop!]).catch((error: unknown) => {
    pinned.unpin();
    throw error;
  });
  if (typeof first === 'number') {
    pinned.unpin();
    return first;
  }
  releaseOpen(pinned.via, flags, opening.finally(pinned.unpin));
  return first;
}

function openAsync(file: string, flags: number): Promise<number> {
  return new Promise<number>((resolve, reject) =>
    fs.open(file, flags, 0o666, (error, fd) => (error ? reject(error) : resolve(fd))),
  );
}

// O_PATH, where Linux gives it this value (every architecture Node runs on but alpha, parisc, sparc).
const O_PATH = ['x64', 'arm64', 'arm', 'ia32', 'ppc64', 'riscv64', 's390x', 'loong64'].includes(process.arch)
  ? 0o10000000
  : null;

// Where to open `file` when it is a FIFO now (its pinned descriptor's path), else null (not one, or
// a path the open will fail on: the open reports the error). Without O_PATH, by its name.
function pinFifo(file: string): { via: string; unpin(): void } | null {
  if (O_PATH === null) return isFifo(file) ? { via: file, unpin: () => {} } : null;
  let fd: number;
  try {
    fd = fs.openSync(file, O_PATH);
  } catch {
    return null; // no such path, no permission, a loop
  }
  if (!fs.fstatSync(fd).isFIFO()) {
    closeQuietly(fd);
    return null;
  }
  let pinned = true;
  const unpin = () => {
    if (pinned) closeQuietly(fd);
    pinned = false;
  };
  return { via: `/proc/self/fd/${fd}`, unpin };
}

// Ends a blocked open of a FIFO by holding its other end until that open has returned: the FIFO is
// opened for reading and writing (on Linux such an open never waits, and counts as a reader and as a
// writer), so the open finds its partner whether it waits in the kernel already or still waits for a
// thread of libuv's pool, to start after the stop. An open that reached no thread yet would otherwise
// wait for ever once started, and Node, whose exit joins the pool's threads, would never exit. The
// hold lasts until the open has returned (or until safe-run's exit closes it).
function releaseOpen(file: string, flags: number, opening: Promise<number>): void {
  const holder = holdOtherEnd(file, flags);
  void opening
    .then(closeQuietly, () => {})
    .finally(() => {
      if (holder !== null) closeQuietly(holder);
    });
}

// Both ends where safe-run may open both; else the other end alone (a writer's open is then released
// even before it starts, a reader's only once it waits in the kernel).
function holdOtherEnd(file: string, flags: number): number | null {
  const { O_RDWR, O_WRONLY, O_RDONLY, O_NONBLOCK } = fs.constants;
  const writing = (flags & (O_WRONLY | O_RDWR)) !== 0;
  for (const how of [O_RDWR, writing ? O_RDONLY : O_WRONLY]) {
    try {
      const fd = fs.openSync(file, how | O_NONBLOCK);
      if (fs.fstatSync(fd).isFIFO()) return fd;
      closeQuietly(fd);
      return null;
    } catch {
      // not allowed both ways, gone, or nobody waits yet: the open returns (or fails) by itself
    }
  }
  return null;
}

// Whether `file` is a FIFO now. A path the open will fail on anyway (ENOTDIR, ELOOP, ENAMETOOLONG,
// EACCES: statSync throws these even with throwIfNoEntry off) is not one: the open reports the error.
function isFifo(file: string): boolean {
  try {
    return fs.statSync(file, { throwIfNoEntry: false })?.isFIFO() ?? false;
  } catch {
    return false;
  }
}
