import fs from 'node:fs';
import type { AndOr } from '../syntax/nodes.js';
import type { RunnerApi } from './api.js';
import { OpenFile } from './fds.js';
import { sourceOf } from './record-step.js';
import { ExitSignal } from './signals.js';

// COMMAND &: runs in a subshell of its own while the text goes on, its stdin the empty file (bash
// without job control); $! is its first process. Returns 0 at once, as bash does.
export async function startBackground(r: RunnerApi, body: AndOr): Promise<number> {
  const job = r.rt.jobs.create(sourceOf(r, body));
  const fds = r.sh.fds.copy();
  const empty = new OpenFile(fs.openSync('/dev/null', 'r'), 'file /dev/null');
  fds.set(0, { kind: 'file', file: empty });
  empty.release();
  const sub = r.subshell(fds, { job });
  job.done = (async () => {
    try {
      return await sub.andOr(body);
    } catch (error) {
      if (error instanceof ExitSignal) return error.status;
      throw error;
    } finally {
      sub.sh.fds.release();
    }
  })().then((status) => {
    job.finished(status);
    return status;
  });
  await Promise.race([job.firstPid, job.done]);
  r.sh.lastBackground = job.pid;
  return 0;
}
