import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { StageRedirect, StreamTarget } from '../types.js';
import { STRERROR, sayOnStderr, where } from './bash-messages.js';
import { type OpenStop, openTarget } from './fifo-open.js';
import { openAlias, stdioAlias } from './stdio-alias.js';
import type { StdioSlot } from './stdio-slot.js';

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
  // The shell's $0, which bash's messages begin with.
  shell: string | undefined = undefined,
): Promise<RedirectOutcome> {
  const slots: Slots = { fds: [...initial], to: [null, null, null], opened: [] };
  const { fds, to, opened } = slots;
  for (const redirect of redirects) {
    const done = applyInPlace(redirect, slots, { stdout: runStdout, stdin: runStdin, shell });
    if (done === null) continue;
    if (done !== 'open') return fail(fds, opened, to, done, stop);
    const file = redirect as Extract<StageRedirect, { kind: 'file' | 'heredoc' }>;
    const got = await openRedirect(file, slots, cwd, stop, shell);
    if (got === null) continue;
    if ('as' in got) return { fds, opened, to, failure: null, stopped: got };
    return fail(fds, opened, to, got, stop);
  }
  return { fds, opened, to, failure: null };
}

// The stage's descriptors as the redirections so far left them.
interface Slots {
  fds: StdioSlot[];
  to: (StreamTarget | null)[];
  opened: number[];
}

function place(slots: Slots, fd: number, slot: StdioSlot, target: StreamTarget | null): void {
  while (slots.fds.length < fd) slots.fds.push('ignore');
  slots.fds[fd] = slot;
  slots.to[fd] = target;
}

type Failure = { code: string; message: string };

// A redirection that opens nothing (a copy, a close, the run's own stream, a held descriptor, a word
// that was not one name): applied here. 'open' for a file or here-document; a failure as bash says it.
function applyInPlace(
  redirect: StageRedirect,
  slots: Slots,
  run: { stdout: StdioSlot; stdin: StdioSlot; shell: string | undefined },
): Failure | null | 'open' {
  switch (redirect.kind) {
    case 'dup': {
      const slot = slots.fds[redirect.from];
      if (slot === undefined || (redirect.from > 2 && slot === 'ignore'))
        return {
          code: 'EBADF',
          message: `${where(redirect.line, run.shell)}${redirect.from}: Bad file descriptor`,
        };
      place(slots, redirect.fd, slot, slots.to[redirect.from] ?? standardName(redirect.from));
      return null;
    }
    case 'close':
      place(slots, redirect.fd, 'ignore', null);
      return null;
    case 'run-stdout':
      place(slots, redirect.fd, run.stdout, { kind: 'stdout' });
      return null;
    case 'run-stdin':
      place(slots, redirect.fd, run.stdin, { kind: 'stdin' });
      return null;
    case 'descriptor':
      place(slots, redirect.fd, redirect.from, redirect.what);
      if (redirect.owned) slots.opened.push(redirect.from);
      return null;
    case 'ambiguous':
      return {
        code: 'EAMBIGUOUS',
        message: `${where(redirect.line, run.shell)}${redirect.word}: ambiguous redirect`,
      };
    default:
      return 'open';
  }
}

// Opens a file or here-document redirection: null once it is in place, the stop that ended a FIFO's
// wait, or the failure as bash says it.
async function openRedirect(
  redirect: Extract<StageRedirect, { kind: 'file' | 'heredoc' }>,
  slots: Slots,
  cwd: string,
  stop: Promise<OpenStop> | null,
  shell: string | undefined,
): Promise<Failure | OpenStop | null> {
  let target = redirect;
  if (redirect.kind === 'file' && redirect.expand) {
    const fields = await redirect.expand().catch(() => null);
    if (fields?.length !== 1) {
      const why = fields === null ? 'could not be expanded' : 'ambiguous redirect';
      return { code: 'EAMBIGUOUS', message: `${where(redirect.line, shell)}${redirect.path}: ${why}` };
    }
    target = { ...redirect, path: fields[0]! };
  }
  try {
    const got = await openOne(target, slots.fds, cwd, stop);
    if (!('fd' in got)) return got;
    if (got.opened) slots.opened.push(got.fd);
    const named: StreamTarget =
      target.kind === 'heredoc' ? { kind: 'here-document' } : { kind: 'file', path: target.path };
    place(slots, target.fd, got.fd, named);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
    const name = target.kind === 'file' ? target.path : 'here-document';
    const line = target.kind === 'file' ? target.line : undefined;
    return { code, message: `${where(line, shell)}${name}: ${STRERROR[code] ?? code}` };
  }
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
