import fs from 'node:fs';
import { RequestError } from '../errors.js';
import type { Interruption, Plan, StopFacts } from '../types.js';
import { openStopper, openTarget } from './fifo-open.js';

// The first stage's stdin. A FIFO is opened without blocking the event loop (its open waits for a
// writer), and the wait is cut short by the pipeline timeout or a signal to safe-run.
export async function openStdin(
  plan: Plan,
  interrupt: Promise<Interruption>,
  t0: number,
): Promise<number | 'inherit' | 'ignore' | { stopped: StopFacts }> {
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
  const stopper = openStopper(interrupt, plan.settings, t0);
  try {
    const opened = await openTarget(source.path, fs.constants.O_RDONLY, stopper.stop).catch(refuse);
    if (typeof opened === 'number') return opened;
    return { stopped: { cause: opened.cause, fifo: { kind: 'stdin', path: source.path } } };
  } finally {
    stopper.dispose();
  }
}
