import type { StageRedirect } from '../../types.js';
import type { Redirect } from '../syntax/nodes.js';
import { fromBytes } from '../syntax/source.js';
import type { RunnerApi } from './api.js';
import type { FdRef, FdTable } from './fds.js';
import { applyRedirects, textFile } from './redirect.js';
import { expandTarget, targetFds } from './redirect-target.js';

// The descriptors a program of the text starts with, as engine redirections: what the shell's 0, 1
// and 2 lead to (a held descriptor is handed over; the run's own streams are the engine's default),
// and every further descriptor the shell has open (`exec 3>log`: bash's children inherit them), then
// the command's own redirections, its words expanded here, in order. `runStdout`: where the run of
// programs this one is part of writes its last stdout (the shell's, or a substitution's).
export async function stageRedirects(
  r: RunnerApi,
  fds: FdTable,
  redirects: readonly Redirect[],
  line: number,
  runStdout: FdRef,
): Promise<StageRedirect[] | string> {
  // {NAME}>file: opened in the shell itself, which keeps it; the program inherits it with the rest.
  const own = redirects.filter((redirect) => redirect.fdVar === null);
  if (own.length < redirects.length) {
    const held = await applyRedirects(
      r,
      redirects.filter((redirect) => redirect.fdVar !== null),
      fds,
    );
    if (held.failed?.kind === 'error') return `a {NAME} redirection failed (${held.failed.message})`;
    if (held.failed) return 'the run stopped while a {NAME} redirection waited for a FIFO';
  }
  const out: StageRedirect[] = [];
  // Further descriptors the shell has open that safe-run cannot hand a program, with why: a program
  // that names one (`>&3`) is refused, one that does not starts without it.
  const unavailable = new Map<number, string>();
  for (const [fd, ref] of fds.entries()) {
    const base = low(fd) ? baseOf(fd, ref, fds, runStdout) : furtherOf(fd, ref, fds, runStdout);
    if (typeof base === 'string') {
      if (low(fd)) return base;
      unavailable.set(fd, base);
    } else if (base) out.push(base);
  }
  for (const redirect of own) {
    const target = await expandTarget(r, redirect);
    const made = await redirectOf(redirect, target, unavailable, line);
    if (typeof made === 'string') return made;
    out.push(...made);
    for (const moved of made) unavailable.delete(moved.fd);
  }
  return out;
}

function baseOf(fd: 0 | 1 | 2, ref: FdRef, fds: FdTable, runStdout: FdRef): StageRedirect | string | null {
  // stderr where the run's stdout goes (`{ a | b; } 2>&1`, `x=$(exec 2>&1; cmd)`): that stdout,
  // whatever this stage's own stdout is (a pipe to the next one).
  if (fd === 2 && sameStdout(ref, runStdout)) return { kind: 'run-stdout', fd };
  if (fd === 2 && ((ref.kind === 'run' && ref.fd === 1) || ref.kind === 'capture'))
    return 'descriptor 2 leads to a stdout other than the one its pipeline writes, which safe-run cannot give a program yet';
  // The run's other stream (`{ cmd; } 1>&2`): a copy of the stage's own descriptor that is the run's
  // stream, when it still is.
  if (ref.kind === 'run' && ref.fd !== fd) {
    const other = fds.get(ref.fd);
    if (other.kind === 'run' && other.fd === ref.fd) return { kind: 'dup', fd, from: ref.fd };
    return `descriptor ${fd} leads to the run's descriptor ${ref.fd} while the shell's ${ref.fd} leads elsewhere, which safe-run cannot give a program yet`;
  }
  if (ref.kind === 'file')
    return { kind: 'descriptor', fd, from: ref.file.fd, owned: false, what: ref.file.what };
  if (ref.kind === 'closed')
    return `descriptor ${fd} is closed (<&- or >&-), which safe-run cannot give a program`;
  return null;
}

function sameStdout(ref: FdRef, runStdout: FdRef): boolean {
  if (ref.kind === 'run') return runStdout.kind === 'run' && ref.fd === 1 && runStdout.fd === 1;
  return ref.kind === 'capture' && runStdout.kind === 'capture' && ref.sink === runStdout.sink;
}

// A descriptor above 2 as the program gets it: a held file, the run's stdin, stdout or stderr, or
// nothing (closed). Anything else is said in words.
function furtherOf(fd: number, ref: FdRef, fds: FdTable, runStdout: FdRef): StageRedirect | string | null {
  if (ref.kind === 'closed') return null;
  if (ref.kind === 'file')
    return { kind: 'descriptor', fd, from: ref.file.fd, owned: false, what: ref.file.what };
  if (sameStdout(ref, runStdout)) return { kind: 'run-stdout', fd };
  if (ref.kind === 'run' && ref.fd === 0 && !ref.pending) return { kind: 'run-stdin', fd };
  const stderr = fds.get(2);
  if (ref.kind === 'run' && ref.fd === 2 && stderr.kind === 'run' && stderr.fd === 2)
    return { kind: 'dup', fd, from: 2 };
  const what = ref.kind === 'capture' ? "a command substitution's output" : `the run's descriptor ${ref.fd}`;
  return `descriptor ${fd} leads to ${what}, which safe-run cannot give a program yet`;
}

const low = (fd: number): fd is 0 | 1 | 2 => fd === 0 || fd === 1 || fd === 2;

async function redirectOf(
  redirect: Redirect,
  target: Awaited<ReturnType<typeof expandTarget>>,
  unavailable: ReadonlyMap<number, string>,
  line: number,
): Promise<StageRedirect[] | string> {
  const dest = targetFds(redirect, target);
  const fd = dest[0]!;
  switch (target.kind) {
    case 'ambiguous':
      return [{ kind: 'ambiguous', fd, word: target.word, line }];
    case 'close':
      if (low(fd)) return `${redirect.op}- closes descriptor ${fd}, which safe-run cannot give a program`;
      return [{ kind: 'close', fd }];
    case 'dup':
      return copyOf(redirect, target, dest, unavailable.get(target.from), line);
    case 'text': {
      const file = await textFile(target.body);
      return [{ kind: 'descriptor', fd, from: file.fd, owned: true, what: { kind: 'here-document' } }];
    }
    default: {
      const path = fromBytes(target.path);
      const file: StageRedirect = { kind: 'file', fd, path, mode: target.mode, line };
      return dest.length === 2 ? [file, { kind: 'dup', fd: 2, from: 1 }] : [file];
    }
  }
}

// `>&N` (and `>&N-`, which also closes N): a copy of the stage's descriptor N as redirected so far;
// the engine fails it as bash does when N is not open.
function copyOf(
  redirect: Redirect,
  target: { from: number; move: boolean },
  dest: number[],
  why: string | undefined,
  line: number,
): StageRedirect[] | string {
  if (why !== undefined) return why;
  const copies = dest.map((fd): StageRedirect => ({ kind: 'dup', fd, from: target.from, line }));
  if (!target.move) return copies;
  if (low(target.from))
    return `${redirect.op}${target.from}- closes descriptor ${target.from}, which safe-run cannot give a program`;
  return [...copies, { kind: 'close', fd: target.from }];
}
