import type { ExpansionError } from '../expand/env.js';
import type { Command } from '../syntax/nodes.js';
import type { Bytes } from '../syntax/source.js';
import type { RunnerApi } from './api.js';
import { runSubshell } from './exit-trap.js';
import { type FdRef, OpenFile } from './fds.js';

// How long a pipeline element run inside safe-run keeps the pipe it reads once it has ended, while
// the element writing into it still runs. bash forks each element, and a reader's end of the pipe goes
// only when its process exits, by which time a writer forked before it has mostly written what it had
// at once (`{ echo m; } | true`: 0 in 93 runs of 100 under bash at load 6, 141 in the others). Here a
// reader that needs no input (`true`, a builtin) ended before the writer's first write, which then met
// a closed pipe: 141 every time. A writer that never stops (`yes | true`) still meets it, as in bash.
const READER_HOLD_MS = 20;

// A builtin, a function or a compound command as an element of a pipeline, in its own subshell.
interface ShellElement {
  sub: RunnerApi;
  command: Command;
  args: Bytes[] | null;
  failed?: ExpansionError;
}

// Where the element reads and writes (a pipe end, or the pipeline's own descriptor), and what writes
// into the pipe it reads (the element before it), if anything.
interface ElementEnds {
  stdin: FdRef | number;
  stdout: FdRef | number;
  writer: Promise<unknown> | null;
}

export async function runShellElement(
  element: ShellElement,
  ends: ElementEnds,
  pipeAll: boolean,
): Promise<number> {
  const { sub } = element;
  const input = install(sub, [0], ends.stdin);
  install(sub, pipeAll ? [1, 2] : [1], ends.stdout);
  const held = input?.retain() ?? null;
  try {
    return await runSubshell(sub, () => {
      const { args, command, failed } = element;
      if (failed) return sub.expansionFailed(failed);
      if (args && args.length > 0 && command.kind === 'simple')
        return sub.runCommandWords(args, { functions: true, command });
      return sub.command(command);
    });
  } finally {
    if (held) letGoLater(held, ends.writer);
  }
}

// Points descriptors of `sub` at `end`: a pipe end (then `sub` alone holds it, and closes it when it
// ends; returned), or the pipeline's own descriptor.
function install(sub: RunnerApi, fds: number[], end: FdRef | number): OpenFile | null {
  if (typeof end !== 'number') {
    for (const fd of fds) sub.sh.fds.set(fd, end);
    return null;
  }
  const file = new OpenFile(end, { kind: 'pipe' });
  for (const fd of fds) sub.sh.fds.set(fd, { kind: 'file', file });
  file.release();
  return file;
}

// Releases the reader's end once the writer has ended, or after READER_HOLD_MS.
function letGoLater(file: OpenFile, writer: Promise<unknown> | null): void {
  let done = false;
  const go = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    file.release();
  };
  const timer = setTimeout(go, READER_HOLD_MS);
  timer.unref();
  writer?.then(go, go);
}
