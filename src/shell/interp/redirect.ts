import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { STRERROR } from '../../engine/apply-redirects.js';
import { ExpansionError } from '../expand/env.js';
import type { Redirect } from '../syntax/nodes.js';
import type { RunnerApi } from './api.js';
import { type FdRef, type FdTable, OpenFile } from './fds.js';
import { expandTarget, type Target, targetFds } from './redirect-target.js';

const FLAGS = {
  read: fs.constants.O_RDONLY,
  write: fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC,
  append: fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_APPEND,
  readwrite: fs.constants.O_RDWR | fs.constants.O_CREAT,
};

// Applies redirections left to right to a copy of the shell's descriptors, as bash does for a builtin
// or a compound command (for a program the engine does it, redirect-stage.ts). The first one that
// fails is reported as bash reports it and stops the others.
export async function applyRedirects(
  r: RunnerApi,
  redirects: readonly Redirect[],
  fds: FdTable,
): Promise<{ fds: FdTable; failed: boolean }> {
  for (const redirect of redirects) {
    let target: Target;
    try {
      target = await expandTarget(r, redirect);
    } catch (error) {
      if (error instanceof ExpansionError) {
        await r.expansionFailed(error);
        return { fds, failed: true };
      }
      throw error;
    }
    const problem = await applyOne(r, redirect, target, fds);
    if (problem !== null) {
      await r.error(problem);
      return { fds, failed: true };
    }
  }
  return { fds, failed: false };
}

async function applyOne(
  r: RunnerApi,
  redirect: Redirect,
  target: Target,
  fds: FdTable,
): Promise<string | null> {
  const dest = targetFds(redirect, target);
  switch (target.kind) {
    case 'ambiguous':
      return `${target.word}: ambiguous redirect`;
    case 'close':
      for (const fd of dest) fds.set(fd, { kind: 'closed' });
      return null;
    case 'dup': {
      const from = fds.get(target.from);
      if (from.kind === 'closed') return `${target.from}: Bad file descriptor`;
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

// /dev/stdin, /dev/stdout, /dev/stderr and /dev/fd/N name the shell's own descriptors.
function aliasOf(file: string): number | null {
  const match = /^\/dev\/(?:(stdin|stdout|stderr)|fd\/([0-9]+))$/.exec(file);
  if (!match) return null;
  return match[1] ? ['stdin', 'stdout', 'stderr'].indexOf(match[1]) : Number(match[2]);
}

async function openFile(
  r: RunnerApi,
  target: Extract<Target, { kind: 'file' }>,
  fds: FdTable,
  dest: number[],
): Promise<string | null> {
  const alias = aliasOf(target.path);
  if (alias !== null) {
    const from = fds.get(alias);
    if (from.kind === 'closed') return `${target.path}: No such file or directory`;
    for (const fd of dest) fds.set(fd, from);
    return null;
  }
  const where =
    target.path.startsWith('/') || target.path === '' ? target.path : path.join(r.sh.cwd, target.path);
  if (target.mode === 'write' && !target.clobber && r.sh.option('noclobber')) {
    const stat = fs.statSync(where, { throwIfNoEntry: false });
    if (stat?.isFile()) return `${target.path}: cannot overwrite existing file`;
  }
  try {
    const fd = await new Promise<number>((resolve, reject) =>
      fs.open(where, FLAGS[target.mode], 0o666, (error, opened) => (error ? reject(error) : resolve(opened))),
    );
    return setAll(fds, dest, new OpenFile(fd, `file ${target.path}`));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
    return `${target.path}: ${STRERROR[code] ?? code}`;
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
    return new OpenFile(fd, 'here-document');
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
