import fs from 'node:fs';
import { RequestError } from '../errors.js';
import { formatDuration } from '../format-units.js';
import type { Plan } from '../types.js';
import { closeQuietly } from './kernel-pipes.js';

// The first stage's stdin. A FIFO is opened without blocking the event loop (its open waits for a
// writer), and the wait is cut short by the pipeline timeout or a signal to safe-run.
export async function openStdin(
  plan: Plan,
  interrupt: Promise<string>,
  t0: number,
): Promise<number | 'inherit' | 'ignore' | { why: string }> {
  const source = plan.settings.stdin;
  if (source.kind === 'inherit') return 'inherit';
  if (source.kind === 'null') return 'ignore';
  const refuse = (error: unknown): never => {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new RequestError('usage.stdin', `stdin ${source.path}: cannot open it for reading (${code})`);
  };
  if (!fs.statSync(source.path, { throwIfNoEntry: false })?.isFIFO()) {
    try {
      return fs.openSync(source.path, 'r');
    } catch (error) {
      return refuse(error);
    }
  }
  const opening = new Promise<number>((resolve, reject) =>
    fs.open(source.path, 'r', (error, fd) => (error ? reject(error) : resolve(fd))),
  );
  const { timeoutMs } = plan.settings;
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<string>((resolve) => {
    if (timeoutMs !== null) {
      const left = Math.max(0, timeoutMs - (performance.now() - t0));
      timer = setTimeout(() => resolve(`the pipeline timeout (${formatDuration(timeoutMs)})`), left);
    }
  });
  const first = await Promise.race([opening.catch(refuse), interrupt, limit]);
  clearTimeout(timer);
  if (typeof first === 'number') return first;
  // The pending open holds a thread of libuv's pool, and Node cannot exit until it returns: become
  // its writer for a moment (the waiting open already counts as a reader, so this does not block),
  // which completes it, then close both ends.
  void opening.then(closeQuietly, () => {});
  try {
    closeQuietly(fs.openSync(source.path, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
  } catch {
    // no pending reader any more
  }
  return { why: `${first}, while the stdin FIFO ${source.path} still had no writer` };
}
