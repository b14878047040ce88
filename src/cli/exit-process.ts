// How safe-run's process ends, for every bundle that runs as one (src/cli/run-process.ts, and
// src/cli/inspect-process.ts for `safe-run inspect`).

// Resolves once everything written to the stream so far has reached the kernel (a slow reader of a
// pipe makes Node queue what does not fit), or the stream failed.
const flushed = (stream: NodeJS.WriteStream) =>
  new Promise<void>((resolve) =>
    stream.writableLength === 0 ? resolve() : stream.write('', () => resolve()),
  );
// After a time limit or a signal, a reader that does not read gets one second, not forever.
const bounded = (promise: Promise<unknown>, hurry: boolean) =>
  hurry ? Promise.race([promise, new Promise((resolve) => setTimeout(resolve, 1000))]) : promise;

// A reader that went away is the reader's choice; the run has already been reported on what remains.
export function ignoreGoneReaders(): void {
  process.stdout.on('error', () => {});
  process.stderr.on('error', () => {});
}

// The one place safe-run exits: once stdout and stderr are written out (bounded when hurried).
export async function exitWhenFlushed(code: number, hurry: boolean): Promise<never> {
  await bounded(Promise.all([flushed(process.stdout), flushed(process.stderr)]), hurry);
  process.exit(code);
}
