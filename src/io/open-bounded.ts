import fs from 'node:fs';
import { formatDuration } from '../format-units.js';

// What ends a wait before it is satisfied: a time bound, or a signal to safe-run (a reason).
export interface WaitBound {
  waitMs: number;
  stop: Promise<string>;
}

type Opened = { fd: number } | { gaveUp: string };

// Opens a FIFO without blocking the event loop: its open waits for a partner (a writer for 'r', a
// reader for 'w'). A wait cut short leaves an open pending in libuv's thread pool, which would keep
// Node from exiting, so safe-run becomes the missing partner for a moment (a non-blocking open of the
// other end, which succeeds because the pending open already counts), and closes both ends.
export async function openFifoBounded(file: string, mode: 'r' | 'w', bound: WaitBound): Promise<Opened> {
  const opening = new Promise<number>((resolve, reject) =>
    fs.open(file, mode === 'r' ? 'r' : fs.constants.O_WRONLY, (error, fd) =>
      error ? reject(error) : resolve(fd),
    ),
  );
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<string>((resolve) => {
    timer = setTimeout(
      () => resolve(`no ${mode === 'r' ? 'writer' : 'reader'} came within ${formatDuration(bound.waitMs)}`),
      bound.waitMs,
    );
  });
  const first = await Promise.race([opening, bound.stop, limit]);
  clearTimeout(timer);
  if (typeof first === 'number') return { fd: first };
  void opening.then(
    (fd) => fs.close(fd, () => {}),
    () => {},
  );
  try {
    const other = mode === 'r' ? fs.constants.O_WRONLY : fs.constants.O_RDONLY;
    fs.closeSync(fs.openSync(file, other | fs.constants.O_NONBLOCK));
  } catch {
    // the pending open has completed or failed by itself
  }
  return { gaveUp: first };
}

// A promise for a signal that stops a wait, and a way to stop listening: for waits before the run's
// own handlers exist.
export function stopOnSignals(signals: readonly NodeJS.Signals[]): {
  stop: Promise<string>;
  signal: () => NodeJS.Signals | null;
  dispose: () => void;
} {
  let received: NodeJS.Signals | null = null;
  let resolve: (why: string) => void = () => {};
  const stop = new Promise<string>((r) => {
    resolve = r;
  });
  const handler = (signal: NodeJS.Signals) => {
    received ??= signal;
    resolve(`safe-run received ${signal}`);
  };
  for (const signal of signals) process.on(signal, handler);
  return {
    stop,
    signal: () => received,
    dispose: () => {
      for (const signal of signals) process.off(signal, handler);
    },
  };
}
