import { listenForEarlySigusr1 } from './early-sigusr1.js';
import { exitWhenFlushed, ignoreGoneReaders } from './exit-process.js';
import { main } from './main.js';
import { readRawInput } from './raw-bytes.js';
import { isStdoutClosed } from './stdout-state.js';

export { main };

// safe-run as a process: bin/safe-run and the single-file binary both start here (bin/safe-run
// starts `safe-run inspect` from src/cli/inspect-process.ts instead).
export async function runAsProcess(): Promise<never> {
  // Node 20 opens its debugger on SIGUSR1 unless something listens (see early-sigusr1.ts): a
  // signal before the run can answer it is counted, and answered once it can.
  listenForEarlySigusr1();
  ignoreGoneReaders();
  const args = process.argv.slice(2);
  const { code, hurry } = await main(args, {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    stdoutClosed: isStdoutClosed(),
    raw: readRawInput(args.length),
  });
  return exitWhenFlushed(code, hurry);
}
