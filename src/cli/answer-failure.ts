import { isRequestError, isStoppedError, RequestError } from '../errors.js';
import { EXIT_REQUEST } from '../policy/verdict.js';
import type { CliIO } from './cli-io.js';
import { maskRequestText, printRefusal } from './refusal.js';

// What the CLI ends with. Only bin/ calls process.exit.
export interface CliResult {
  code: number;
  // A time limit fired or safe-run was signalled: do not wait long for a stalled reader of its output.
  hurry: boolean;
}

export function refuseUnsupportedPlatform(): void {
  if (process.platform !== 'win32') return;
  throw new RequestError(
    'platform.unsupported',
    'Windows is not supported: safe-run needs POSIX process groups, signals and pipes; run it under WSL',
  );
}

// A working directory removed after the shell entered it has no path: Node's process.cwd() fails with
// ENOENT (uv_cwd) wherever safe-run needs it (a relative path, a program looked up from it, `cd`).
// bash warns and goes on; safe-run asks for a directory that exists. --cwd or a spec's absolute cwd
// need no such thing, and run.
function cwdGone(error: unknown): RequestError | null {
  const errno = error as NodeJS.ErrnoException;
  if (errno?.code !== 'ENOENT' || errno.syscall !== 'uv_cwd') return null;
  return new RequestError(
    'cwd.removed',
    'the current directory no longer exists (it was removed after the shell entered it); cd to an existing directory and run safe-run again',
  );
}

// How the CLI answers what stopped it before a report: a stop said in one line, a refused request
// in one line (and as JSON under --json) with 125, anything else as an internal error with 125.
export function answerFailure(error: unknown, args: readonly string[], io: CliIO): CliResult {
  if (isStoppedError(error)) {
    io.stderr.write(`safe-run: ${maskRequestText(error.message, args, io.env)}\n`);
    return { code: error.exitCode, hurry: true };
  }
  const refusal = isRequestError(error) ? error : cwdGone(error);
  if (refusal) {
    printRefusal(refusal, args, io);
    return { code: EXIT_REQUEST, hurry: false };
  }
  const text = error instanceof Error ? error.message : String(error);
  io.stderr.write(`safe-run: internal error: ${maskRequestText(text, args, io.env)}\n`);
  return { code: EXIT_REQUEST, hurry: false };
}
