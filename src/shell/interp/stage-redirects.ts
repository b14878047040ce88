import type { StageRedirect } from '../../types.js';
import type { Redirect } from '../syntax/nodes.js';
import { fromBytes } from '../syntax/source.js';
import type { RunnerApi } from './api.js';
import type { FdRef, FdTable } from './fds.js';
import { textFile } from './redirect.js';
import { expandTarget, targetFds } from './redirect-target.js';

// The descriptors a program of the text starts with, as engine redirections: what the shell's 0, 1
// and 2 lead to (a held descriptor is handed over; the run's own streams are the engine's default),
// then the command's own redirections, its words expanded here, in order. `runStdout`: where the run
// of programs this one is part of writes its last stdout (the shell's, or a substitution's).
export async function stageRedirects(
  r: RunnerApi,
  fds: FdTable,
  redirects: readonly Redirect[],
  line: number,
  runStdout: FdRef,
): Promise<StageRedirect[] | string> {
  const out: StageRedirect[] = [];
  for (const fd of [0, 1, 2] as const) {
    const ref = fds.get(fd);
    const base = baseOf(fd, ref, fds, runStdout);
    if (typeof base === 'string') return base;
    if (base) out.push(base);
  }
  for (const redirect of redirects) {
    const target = await expandTarget(r, redirect);
    const made = await redirectOf(redirect, target, fds, line);
    if (typeof made === 'string') return made;
    out.push(...made);
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

const low = (fd: number): fd is 0 | 1 | 2 => fd === 0 || fd === 1 || fd === 2;

async function redirectOf(
  redirect: Redirect,
  target: Awaited<ReturnType<typeof expandTarget>>,
  fds: FdTable,
  line: number,
): Promise<StageRedirect[] | string> {
  const dest = targetFds(redirect, target);
  if (!dest.every(low))
    return `a redirection of descriptor ${dest.find((fd) => !low(fd))} (above 2), which safe-run does not give programs yet`;
  const targets = dest as (0 | 1 | 2)[];
  switch (target.kind) {
    case 'ambiguous':
      return [{ kind: 'ambiguous', fd: targets[0]!, word: target.word, line }];
    case 'close':
      return `${redirect.op}- closes descriptor ${targets[0]}, which safe-run cannot give a program`;
    case 'dup': {
      if (low(target.from)) return targets.map((fd) => ({ kind: 'dup', fd, from: target.from as 0 | 1 | 2 }));
      const held = fds.get(target.from);
      if (held.kind !== 'file')
        return [{ kind: 'ambiguous', fd: targets[0]!, word: `${target.from}: Bad file descriptor`, line }];
      return targets.map((fd) => ({
        kind: 'descriptor',
        fd,
        from: held.file.fd,
        owned: false,
        what: held.file.what,
      }));
    }
    case 'text': {
      const file = await textFile(target.body);
      return [
        { kind: 'descriptor', fd: targets[0]!, from: file.fd, owned: true, what: { kind: 'here-document' } },
      ];
    }
    default: {
      if (target.mode === 'readwrite')
        return '<> opens a file for reading and writing, which safe-run does not give programs yet';
      const path = fromBytes(target.path);
      const file: StageRedirect = { kind: 'file', fd: targets[0]!, path, mode: target.mode, line };
      return targets.length === 2 ? [file, { kind: 'dup', fd: 2, from: 1 }] : [file];
    }
  }
}
