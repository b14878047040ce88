import fs from 'node:fs';
import type { Report } from '../types.js';
import type { Reporter } from './reporter.js';
import { type AtomicWriteOptions, writeFileAtomic } from './write-atomic.js';
import { writeNewFile } from './write-new-file.js';

interface ReportStreams {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

// Hands the report to every reporter, in order, and writes what each renders where it goes. A file
// is written whole or not at all, within the bound in `files` (a FIFO waits for its reader); one
// that cannot be written does not change the run's outcome: the problem is said on stderr, last.
export async function writeReports(
  report: Report,
  reporters: readonly Reporter[],
  streams: ReportStreams,
  files: AtomicWriteOptions = { guard: null, waitMs: 60_000, stop: new Promise<string>(() => {}) },
  // Masks the run's secrets in a problem's text (a file's path can hold one).
  mask: (text: string) => string = (text) => text,
): Promise<void> {
  const problems: string[] = [];
  for (const reporter of reporters) {
    const text = reporter.render(report);
    const { destination } = reporter;
    if (destination.kind === 'stdout' || destination.kind === 'stderr') {
      if (text.length > 0) streams[destination.kind].write(text);
      continue;
    }
    try {
      if (destination.kind === 'file') await writeFileAtomic(destination.path, text, files);
      else if (destination.kind === 'append') fs.appendFileSync(destination.path, text);
      else writeNewFile(destination, text, files.guard);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      const where = destination.kind === 'new-file' ? destination.dir : destination.path;
      // An append may have left part of its text; a whole file is written whole or not at all.
      const left = destination.kind === 'append' ? '' : '; nothing was left there';
      problems.push(
        `safe-run: warning: ${destination.flag} ${where} could not be written (${code})${left}\n`,
      );
    }
  }
  for (const problem of problems) streams.stderr.write(mask(problem));
}
