import fs from 'node:fs';
import type { StageError } from '../types.js';
import type { OpenStop } from './fifo-open.js';
import type { StdioSlot } from './stdio-slot.js';

// bash's own one-line messages about a stage that could not start (a redirection that failed, a
// program that is not there), said where bash says them: on the stage's stderr as redirected so far.

export const STRERROR: Record<string, string> = {
  ENOENT: 'No such file or directory',
  EACCES: 'Permission denied',
  EPERM: 'Operation not permitted',
  EISDIR: 'Is a directory',
  ENOTDIR: 'Not a directory',
  EROFS: 'Read-only file system',
  ELOOP: 'Too many levels of symbolic links',
  ENXIO: 'No such device or address',
  ETXTBSY: 'Text file busy',
  ENAMETOOLONG: 'File name too long',
  ENOSPC: 'No space left on device',
  EEXIST: 'File exists',
  ENOEXEC: 'cannot execute binary file: Exec format error',
};

// "bash: line N: " before a message, as bash -c names the line (without one: "bash: "); `shell`: the
// shell's $0, which a script file's messages begin with instead.
export function where(line: number | undefined, shell = 'bash'): string {
  return line === undefined ? `${shell}: ` : `${shell}: line ${line}: `;
}

// Writes bash's one-line message to a stage's stderr without ever blocking the event loop: the
// descriptor is often the captured pipe that only this process reads, and a message over the pipe's
// 64 KiB (a long command name) would wait for that reader for ever. The write goes through libuv's
// pool; the wait for it ends with the run (its time limit or a signal), and the message is in the
// report either way.
export async function sayOnStderr(
  stderr: StdioSlot,
  message: string,
  stop: Promise<OpenStop> | null,
): Promise<void> {
  if (typeof stderr !== 'number') return;
  const written = writeAll(stderr, Buffer.from(`${message}\n`)).catch(() => {});
  await (stop ? Promise.race([written, stop]) : written);
}

function writeAll(fd: number, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const from = (offset: number) =>
      fs.write(fd, data, offset, data.length - offset, null, (error, count) => {
        if (error) reject(error);
        else if (offset + count < data.length) from(offset + count);
        else resolve();
      });
    from(0);
  });
}

// A -c stage whose program cannot start: bash's message on its stderr as redirected, and the stage
// fails alone with bash's code while the others run.
export async function notFoundAsBash(
  run: {
    spec: { argv: string[]; line?: number; shell?: string; searchPath?: string; execFound?: true };
    preflightError: StageError | null;
  },
  stderr: StdioSlot,
  stop: Promise<OpenStop> | null,
): Promise<StageError> {
  const error = run.preflightError!;
  const program = run.spec.argv[0] ?? '';
  const searched = error.exitCode === 127 && !program.includes('/') && run.spec.searchPath !== '';
  // (With PATH unset or empty bash looks in the directory only, and says why as for a path.)
  const why = searched ? 'command not found' : (STRERROR[error.code] ?? error.message);
  // `exec NAME` that PATH does not give is said by exec: "exec: NAME: not found".
  const said = searched && run.spec.execFound ? `exec: ${program}: not found` : `${program}: ${why}`;
  // The report keeps safe-run's own explanation (where it searched); the stage's stderr gets bash's.
  await sayOnStderr(stderr, `${where(run.spec.line, run.spec.shell)}${said}`, stop);
  return { ...error, during: 'command' };
}
