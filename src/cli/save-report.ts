import { writeFileAtomic } from '../report/write-atomic.js';
import type { Watchdog } from '../teardown/watchdog.js';

// --report FILE. The run happened: its outcome stands, and a report that could not be saved is a
// warning line (returned), never a different exit code.
export async function saveReport(
  file: string,
  document: string,
  options: { guard: Watchdog | null; waitMs: number; stopped: Promise<NodeJS.Signals> },
): Promise<string | null> {
  try {
    const stop = options.stopped.then((signal) => `safe-run received ${signal}`);
    await writeFileAtomic(file, document, { guard: options.guard, waitMs: options.waitMs, stop });
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return `safe-run: warning: --report ${file} could not be written (${code}); nothing was left there\n`;
  }
}
