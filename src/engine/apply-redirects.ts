import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { StageError, StageRedirect, StreamTarget } from '../types.js';
import { type OpenStop, openTarget } from './fifo-open.js';
import { openAlias, stdioAlias } from './stdio-alias.js';

export type StdioSlot = number | 'inherit' | 'ignore';

// What a stage's stdin, stdout and stderr became after its redirections, and where each went in words.
interface RedirectOutcome {
  // The stage's descriptors from 0 on: stdin, stdout, stderr, then any further one the -c text gives
  // it ('ignore' above 2: not open).
  fds: StdioSlot[];
  // Descriptors opened here: the caller closes them once the stage holds them (or did not start).
  opened: number[];
  // Where each descriptor finally went, when a redirection moved it (stdin, stdout and stderr are
  // reported).
  to: (StreamTarget | null)[];
  // The first redirection that failed, as bash reports it; later ones were not attempted.
  failure: { code: string; message: string } | null;
  // Set when a FIFO's open was still waiting for its other end as the run stopped.
  stopped?: OpenStop;
}

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

const STDIO_NAMES = ['stdin', 'stdout', 'stderr'] as const;

// Where the stage's own descriptor `fd` leads before any redirection, in the report's words.
function standardName(fd: number): StreamTarget | null {
  const name = STDIO_NAMES[fd];
  return name ? { kind: name } : null;
}

const FLAGS = {
  read: fs.constants.O_RDONLY,
  write: fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC,
  append: fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_APPEND,
  readwrite: fs.constants.O_RDWR | fs.constants.O_CREAT,
};

// Opens without blocking the event loop (a here-document's file is never a FIFO).
function openAsync(file: string, flags: number): Promise<number> {
  return new Promise((resolve, reject) =>
    fs.open(file, flags, 0o666, (error, fd) => (error ? reject(error) : resolve(fd))),
  );
}

// A here-document as a file that is already unlinked: the stage reads the body from its start.
async function openBody(body: string): Promise<number> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'safe-run-heredoc-'));
  const file = path.join(dir, 'body');
  try {
    await fs.promises.writeFile(file, body, { mode: 0o600 });
    return await openAsync(file, fs.constants.O_RDONLY);
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

// Applies a stage's redirections left to right, as bash does in the child before exec: files open
// relative to the stage's directory with bash's flags and mode 0666 (less the umask); a failure
// stops there, with the files opened so far already created or truncated, as in bash.
export async function applyRedirects(
  initial: readonly StdioSlot[],
  redirects: readonly StageRedirect[],
  cwd: string,
  stop: Promise<OpenStop> | null = null,
  runStdout: StdioSlot = initial[1] ?? 'ignore',
  runStdin: StdioSlot = initial[0] ?? 'ignore',
): Promise<RedirectOutcome> {
  const fds: StdioSlot[] = [...initial];
  const to: RedirectOutcome['to'] = [null, null, null];
  const opened: number[] = [];
  const moved = (fd: number, slot: StdioSlot, target: StreamTarget | null) => {
    while (fds.length < fd) fds.push('ignore');
    fds[fd] = slot;
    to[fd] = target;
  };
  for (const redirect of redirects) {
    if (redirect.kind === 'dup') {
      const slot = fds[redirect.from];
      if (slot === undefined || (redirect.from > 2 && slot === 'ignore')) {
        const message = `${where(redirect.line)}${redirect.from}: Bad file descriptor`;
        return fail(fds, opened, to, { code: 'EBADF', message }, stop);
      }
      moved(redirect.fd, slot, to[redirect.from] ?? standardName(redirect.from));
      continue;
    }
    if (redirect.kind === 'close') {
      moved(redirect.fd, 'ignore', null);
      continue;
    }
    if (redirect.kind === 'run-stdout' || redirect.kind === 'run-stdin') {
      const stdout = redirect.kind === 'run-stdout';
      moved(redirect.fd, stdout ? runStdout : runStdin, { kind: stdout ? 'stdout' : 'stdin' });
      continue;
    }
    if (redirect.kind === 'descriptor') {
      moved(redirect.fd, redirect.from, redirect.what);
      if (redirect.owned) opened.push(redirect.from);
      continue;
    }
    if (redirect.kind === 'ambiguous') {
      const message = `${where(redirect.line)}${redirect.word}: ambiguous redirect`;
      return fail(fds, opened, to, { code: 'EAMBIGUOUS', message }, stop);
    }
    let target = redirect;
    if (redirect.kind === 'file' && redirect.expand) {
      const fields = await redirect.expand().catch(() => null);
      if (fields?.length !== 1) {
        const why = fields === null ? 'could not be expanded' : 'ambiguous redirect';
        const message = `${where(redirect.line)}${redirect.path}: ${why}`;
        return fail(fds, opened, to, { code: 'EAMBIGUOUS', message }, stop);
      }
      target = { ...redirect, path: fields[0]! };
    }
    try {
      const got = await openOne(target, fds, cwd, stop);
      if (!('fd' in got)) return { fds, opened, to, failure: null, stopped: got };
      if (got.opened) opened.push(got.fd);
      moved(
        target.fd,
        got.fd,
        target.kind === 'heredoc' ? { kind: 'here-document' } : { kind: 'file', path: target.path },
      );
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
      const name = target.kind === 'file' ? target.path : 'here-document';
      const line = target.kind === 'file' ? target.line : undefined;
      const message = `${where(line)}${name}: ${STRERROR[code] ?? code}`;
      return fail(fds, opened, to, { code, message }, stop);
    }
  }
  return { fds, opened, to, failure: null };
}

// One file or here-document redirection's descriptor, and whether it was opened here (a name for the
// stage's own pipe end is that end).
async function openOne(
  target: Extract<StageRedirect, { kind: 'file' | 'heredoc' }>,
  fds: readonly StdioSlot[],
  cwd: string,
  stop: Promise<OpenStop> | null,
): Promise<{ fd: number; opened: boolean } | OpenStop> {
  if (target.kind === 'heredoc') return { fd: await openBody(target.body), opened: true };
  const file = inDirectory(cwd, target.path);
  const alias = stdioAlias(file);
  if (alias !== null) return openAlias(alias, fds, FLAGS[target.mode], stop);
  const fd = await openTarget(file, FLAGS[target.mode], stop);
  return typeof fd === 'number' ? { fd, opened: true } : fd;
}

// The path the kernel would open for `file` relative to `cwd`, not normalised: `..` after a symbolic
// link is the link target's parent, and a trailing slash still demands a directory, as in bash.
function inDirectory(cwd: string, file: string): string {
  if (file === '' || path.isAbsolute(file)) return file;
  return cwd.endsWith('/') ? `${cwd}${file}` : `${cwd}/${file}`;
}

function where(line: number | undefined): string {
  return line === undefined ? 'bash: ' : `bash: line ${line}: `;
}

// bash says why on the stage's stderr as redirected so far (a file, or the captured pipe).
async function fail(
  fds: RedirectOutcome['fds'],
  opened: number[],
  to: RedirectOutcome['to'],
  failure: { code: string; message: string },
  stop: Promise<OpenStop> | null,
): Promise<RedirectOutcome> {
  await sayOnStderr(fds[2] ?? 'ignore', failure.message, stop);
  return { fds, opened, to, failure };
}

// Writes bash's one-line message to a stage's stderr without ever blocking the event loop: the
// descriptor is often the captured pipe that only this process reads, and a message over the pipe's
// 64 KiB (a long command name) would wait for that reader for ever. The write goes through libuv's
// pool; the wait for it ends with the run (its time limit or a signal), and the message is in the
// report either way.
async function sayOnStderr(
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
  run: { spec: { argv: string[]; line?: number }; preflightError: StageError | null },
  stderr: StdioSlot,
  stop: Promise<OpenStop> | null,
): Promise<StageError> {
  const error = run.preflightError!;
  const program = run.spec.argv[0] ?? '';
  const why =
    error.exitCode === 127 && !program.includes('/')
      ? 'command not found'
      : (STRERROR[error.code] ?? error.message);
  // The report keeps safe-run's own explanation (where it searched); the stage's stderr gets bash's.
  await sayOnStderr(stderr, `${where(run.spec.line)}${program}: ${why}`, stop);
  return { ...error, during: 'command' };
}
