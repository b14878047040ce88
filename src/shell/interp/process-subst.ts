import fs from 'node:fs';
import { type OpenStop, openTarget } from '../../engine/fifo-open.js';
import { closeQuietly } from '../../engine/kernel-pipes.js';
import type { ProcSubst } from '../syntax/nodes.js';
import { type Bytes, toBytes } from '../syntax/source.js';
import type { RunnerApi } from './api.js';
import { startJob } from './background.js';
import { OpenFile } from './fds.js';
import { sourceOf } from './record-step.js';
import { waitStop } from './wait-stop.js';

// How often a job still waiting in its FIFO's open is let go once its command is done.
const LET_GO_EVERY_MS = 50;
// How often a <(list) job looks for a reader of its FIFO.
const WRITER_POLL_MS = 5;

// <(LIST) and >(LIST) as bash runs them where it has no /dev/fd: the word becomes the path of a FIFO
// of the run's, and LIST runs as a job of the shell's (supervised like any other: its programs are
// stages of the report) that opens the FIFO itself, for writing (<) or reading (>), so that whoever
// opens the path finds the other side there. (A pipe at /dev/fd/63, as bash gives on Linux, cannot be
// had: Node makes no anonymous pipes, and a FIFO reopened through /dev/fd/63 after LIST has ended
// would wait for a writer for ever.) Once the command that expanded the word is done, a job still
// waiting in its open (nobody opened the path) is let go, and the FIFO removed.
export async function processSubstitute(r: RunnerApi, part: ProcSubst): Promise<Bytes> {
  const order = r.rt.support.take(1);
  await order.made;
  const file = order.batch.paths[0]!;
  const writing = part.op === '<';
  let opened: Promise<unknown> = Promise.resolve();
  const command = { done: false };
  const job = await startJob(r, sourceOf(r, part), r.sh.fds.copy(), async (sub) => {
    sub.place.job?.mayWait();
    const open = writing
      ? openWriter(file, command, waitStop(sub))
      : openTarget(file, fs.constants.O_RDONLY, waitStop(sub));
    opened = open.catch(() => null);
    const fd = await open;
    if (typeof fd !== 'number') return 1;
    const end = new OpenFile(fd, { kind: 'pipe' });
    sub.sh.fds.set(writing ? 1 : 0, { kind: 'file', file: end });
    end.release();
    return sub.list(part.stmts);
  });
  job.substitution = true;
  r.sh.fds.substitutions.push(() => {
    command.done = true;
    letGo(file, writing, opened, () => r.rt.support.release(order));
  });
  return toBytes(file);
}

// The writing end of <(list)'s FIFO, opened without holding one of libuv's four threads while nobody
// reads: a blocked open holds one until a reader comes, and five substitutions waiting at once would
// leave none for the reads and writes that would end the waits (`cat <(a) <(b) <(c) <(d) <(e)`). So
// the open is tried without blocking until a reader is there, then made for real (it returns at
// once with a reader present). Null once the command is done or the run stopped, without a reader.
async function openWriter(
  file: string,
  command: { done: boolean },
  stop: Promise<OpenStop>,
): Promise<number | null> {
  let stopped = false;
  void stop.then(() => {
    stopped = true;
  });
  while (!stopped && !command.done) {
    let probe: number;
    try {
      probe = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
      await new Promise((resolve) => setTimeout(resolve, WRITER_POLL_MS));
      continue;
    }
    try {
      const fd = await openTarget(file, fs.constants.O_WRONLY, stop);
      return typeof fd === 'number' ? fd : null;
    } finally {
      closeQuietly(probe);
    }
  }
  return null;
}

// Opens the other end for a moment, again until the job's own open returns, then removes the FIFO.
// Harmless when the command did open the path: the job's open has returned, or is about to, and a
// reader (or writer) that comes and goes changes nothing for the data.
function letGo(file: string, writing: boolean, opened: Promise<unknown>, remove: () => void): void {
  const other = (writing ? fs.constants.O_RDONLY : fs.constants.O_WRONLY) | fs.constants.O_NONBLOCK;
  const poke = () => {
    try {
      closeQuietly(fs.openSync(file, other));
    } catch {
      // no reader yet for a writer's open (ENXIO), or gone: the next poke, or the run's end
    }
  };
  let settled = false;
  void opened.finally(() => {
    settled = true;
  });
  // A microtask later: an open that returned meanwhile needs no poke.
  void Promise.resolve().then(() => {
    if (settled) return remove();
    poke();
    const timer = setInterval(poke, LET_GO_EVERY_MS);
    void opened.finally(() => {
      clearInterval(timer);
      remove();
    });
  });
}
