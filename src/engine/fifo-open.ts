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
// and a stopped wait is ended by opening the other end for a moment (a waiting reader counts as a
// reader, a waiting writer as a writer, so that open does not wait), then both are closed.
export async function openTarget(
  file: string,
  flags: number,
  stop: Promise<OpenStop> | null,
): Promise<number | OpenStop> {
  const opening = new Promise<number>((resolve, reject) =>
    fs.open(file, flags, 0o666, (error, fd) => (error ? reject(error) : resolve(fd))),
  );
  if (!stop || !isFifo(file)) return opening;
  const first = await Promise.race([opening, stop]);
  if (typeof first === 'number') return first;
  releaseOpen(file, flags, opening);
  return first;
}

const RELEASE_EVERY_MS = 10;
const RELEASE_FOR_MS = 10_000;

// Ends a blocked open of a FIFO by opening its other end for a moment, again and again until the
// open has returned: a stop that came before the open reached the kernel (it waits for a thread of
// libuv's pool) finds nobody waiting the first time (a writer's O_NONBLOCK open then fails with
// ENXIO), and the open, started after, would wait for ever and keep Node from exiting.
function releaseOpen(file: string, flags: number, opening: Promise<number>): void {
  let settled = false;
  void opening
    .then(closeQuietly, () => {})
    .finally(() => {
      settled = true;
    });
  const writing = (flags & (fs.constants.O_WRONLY | fs.constants.O_RDWR)) !== 0;
  const other = (writing ? fs.constants.O_RDONLY : fs.constants.O_WRONLY) | fs.constants.O_NONBLOCK;
  const release = () => {
    try {
      closeQuietly(fs.openSync(file, other));
    } catch {
      // nobody waits yet, or the wait ended by itself meanwhile
    }
  };
  release();
  const since = monotonicMs();
  const timer = setInterval(() => {
    if (settled || monotonicMs() - since > RELEASE_FOR_MS) clearInterval(timer);
    else release();
  }, RELEASE_EVERY_MS);
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
