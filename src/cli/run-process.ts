import { listenForEarlySigusr1 } from './early-sigusr1.js';
import { main } from './main.js';
import { readRawInput } from './raw-bytes.js';
import { isStdoutClosed } from './stdout-state.js';

export { main };

// Resolves once everything written to the stream so far has reached the kernel (a slow reader of a
// pipe makes Node queue what does not fit), or the stream failed.
const flushed = (stream: NodeJS.WriteStream) =>
  new Promise<void>((resolve) =>
    stream.writableLength === 0 ? resolve() : stream.write('', () => resolve()),
  );
// After a time limit or a signal, a reader that does not read gets one second, not forever.
const bounded = (promise: Promise<unknown>, hurry: boolean) =>
  hurry ? Promise.race([promise, new Promise((resolve) => setTimeout(resolve, 1000))]) : promise;

// safe-run as a process: bin/safe-run and the single-file binary both start here.
export async function runAsProcess(): Promise<never> {
  // Node 20 opens its debugger on SIGUSR1 unless something listens (see early-sigusr1.ts): a
  // signal before the run can answer it is counted, and answered once it can.
  listenForEarlySigusr1();
  // A reader that went away is the reader's choice; the run has already been reported on what remains.
  process.stdout.on('error', () => {});
  process.stderr.on('error', () => {});
  const args = process.argv.slice(2);
  const { code, hurry } = await main(args, {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    stdoutClosed: isStdoutClosed(),
    raw: readRawInput(args.length),
  });
  await bounded(Promise.all([flushed(process.stdout), flushed(process.stderr)]), hurry);
  // The one place safe-run exits.
  process.exit(code);
}
