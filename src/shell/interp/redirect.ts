import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { STRERROR } from '../../engine/bash-messages.js';
import { type OpenStop, openTarget } from '../../engine/fifo-open.js';
import { stdioAlias } from '../../engine/stdio-alias.js';
import { ExpansionError } from '../expand/env.js';
import type { Redirect } from '../syntax/nodes.js';
import type { RunnerApi } from './api.js';
import { type FdRef, type FdTable, OpenFile } from './fds.js';
import { writeTo } from './output.js';
import type { RedirectFailure } from './redirect-failure.js';
import { expandTarget, type Target, targetFds } from './redirect-target.js';
import { noteWaitStop } from './stops.js';
import { varDescriptor } from './var-redirects.js';
import { waitStop } from './wait-stop.js';

const FLAGS = {
  read: fs.constants.O_RDONLY,
  write: fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC,
  append: fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_APPEND,
  readwrite: fs.constants.O_RDWR | fs.constants.O_CREAT,
};

type Problem = { code: string; text: string } | { stop: OpenStop };

// Applies redirections left to right to a copy of the shell's descriptors, as bash does for a builtin
// or a compound command (for a program the engine does it, redirect-stage.ts). The first one that
// fails is reported as bash reports it and stops the others.
export async function applyRedirects(
  r: RunnerApi,
  redirects: readonly Redirect[],
  fds: FdTable,
): Promise<{ fds: FdTable; failed: RedirectFailure | null }> {
  for (const written of redirects) {
    // {NAME}>file: a descriptor of the shell's own, kept after the command (var-redirects.ts).
    let redirect = written;
    if (written.fdVar !== null) {
      const fd = await varDescriptor(r, written, fds);
      if (fd === 'skip') continue;
      if (typeof fd !== 'number')
        return { fds, failed: { kind: 'error', code: 'EBADF', message: fd.failed } };
      redirect = { ...written, fd, fdVar: null };
    }
    let target: Target;
    try {
      target = await expandTarget(r, redirect);
    } catch (error) {
      if (error instanceof ExpansionError) {
        await r.expansionFailed(error);
        return { fds, failed: { kind: 'error', code: 'EEXPANSION', message: error.message } };
      }
      throw error;
    }
    r.checkStopped();
    const problem = await applyOne(r, redirect, target, fds);
    if (problem === null && written.fdVar !== null && fds !== r.sh.fds)
      r.sh.fds.set(redirect.fd!, fds.get(redirect.fd!));
    if (problem === null) continue;
    if ('stop' in problem) {
      // (The text's kill of a job stops only that job.)
      noteWaitStop(r.rt, problem.stop);
      return { fds, failed: { kind: 'stopped', stop: problem.stop } };
    }
    const message = `${r.sh.messageName()}: line ${r.sh.lineno}: ${problem.text}`;
    // Said where stderr goes by then (`2>&1 >a*` says it into what 2>&1 made stderr).
    await writeTo(r.rt, fds.get(2), `${message}\n`);
    return { fds, failed: { kind: 'error', code: problem.code, message } };
  }
  return { fds, failed: null };
}

async function applyOne(
  r: RunnerApi,
  redirect: Redirect,
  target: Target,
  fds: FdTable,
): Promise<Problem | null> {
  const dest = targetFds(redirect, target);
  switch (target.kind) {
    case 'ambiguous':
      return { code: 'EAMBIGUOUS', text: `${target.word}: ambiguous redirect` };
    case 'close':
      for (const fd of dest) fds.set(fd, { kind: 'closed' });
      return null;
    case 'dup': {
      const from = fds.get(target.from);
      if (from.kind === 'closed') return { code: 'EBADF', text: `${target.from}: Bad file descriptor` };
      for (const fd of dest) fds.set(fd, from);
      if (target.move) fds.set(target.from, { kind: 'closed' });
      return null;
    }
    case 'text': {
      const file = await textFile(target.body);
      return setAll(fds, dest, file);
    }
    default:
      return openFile(r, target, fds, dest);
  }
}

function setAll(fds: FdTable, dest: number[], file: OpenFile): null {
  const ref: FdRef = { kind: 'file', file };
  for (const fd of dest) fds.set(fd, ref);
  file.release();
  return null;
}

async function openFile(
  r: RunnerApi,
  target: Extract<Target, { kind: 'file' }>,
  fds: FdTable,
  dest: number[],
): Promise<Problem | null> {
  // A relative path is the kernel's to resolve from the physical directory (`..` after a link is
  // the link target's parent, as in bash's process), so it is joined, never normalized.
  const where =
    target.path.startsWith('/') || target.path === '' ? target.path : `${physical(r.sh.cwd)}/${target.path}`;
  // /dev/stdout, /dev/fd/N, /proc/self/fd/N (in any spelling, or through a link) name the shell's
  // own descriptors, as the kernel resolves them in bash's process.
  const alias = where === '' ? null : stdioAlias(where);
  if (alias !== null) {
    const from = fds.get(alias);
    if (from.kind === 'closed') return { code: 'ENOENT', text: `${target.path}: No such file or directory` };
    for (const fd of dest) fds.set(fd, from);
    return null;
  }
  if (target.mode === 'write' && !target.clobber && r.sh.option('noclobber')) {
    const stat = fs.statSync(where, { throwIfNoEntry: false });
    if (stat?.isFile()) return { code: 'EEXIST', text: `${target.path}: cannot overwrite existing file` };
  }
  try {
    const fd = await openTarget(where, FLAGS[target.mode], waitStop(r));
    if (typeof fd !== 'number') return { stop: fd };
    return setAll(fds, dest, new OpenFile(fd, { kind: 'file', path: target.path }));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
    return { code, text: `${target.path}: ${STRERROR[code] ?? code}` };
  }
}

// A here-document's or here-string's text as a file already unlinked, read from its start.
export async function textFile(body: string): Promise<OpenFile> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'safe-run-heredoc-'));
  const file = path.join(dir, 'body');
  try {
    await fs.promises.writeFile(file, Buffer.from(body, 'latin1'), { mode: 0o600 });
    const fd = await new Promise<number>((resolve, reject) =>
      fs.open(file, 'r', (error, opened) => (error ? reject(error) : resolve(opened))),
    );
    return new OpenFile(fd, { kind: 'here-document' });
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

function physical(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return dir;
  }
}
