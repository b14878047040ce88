import { inspectCommand } from '../hang/inspect-command.js';
import { answerFailure, type CliResult, refuseUnsupportedPlatform } from './answer-failure.js';
import type { CliIO } from './cli-io.js';
import { listenForEarlySigusr1 } from './early-sigusr1.js';
import { exitWhenFlushed, ignoreGoneReaders } from './exit-process.js';

// `safe-run inspect PID` as bin/safe-run starts it: a bundle of its own (dist/cli/inspect-process.cjs,
// with its code cache), without the run's start-up snapshot. Someone looking at a stuck job on a
// crowded machine waits for Node and this bundle only, not for the whole command line (the
// snapshot's heap is most of `safe-run --version`'s time). The same command runs in main.cjs too
// (src/cli/main.ts), for the single-file binary and for main() in-process: both answer alike.

// args as the command line's: ['inspect', PID, ...].
export function inspectMain(args: readonly string[], io: CliIO): CliResult {
  try {
    refuseUnsupportedPlatform();
    return { code: inspectCommand(args.slice(1), io), hurry: false };
  } catch (error) {
    return answerFailure(error, args, io);
  }
}

export async function runAsProcess(): Promise<never> {
  // As src/cli/run-process.ts: an early SIGUSR1 never leaves Node's debugger open.
  listenForEarlySigusr1();
  ignoreGoneReaders();
  const { code, hurry } = inspectMain(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
  });
  return exitWhenFlushed(code, hurry);
}
