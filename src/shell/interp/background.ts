import fs from 'node:fs';
import path from 'node:path';
import type { RunHandle } from '../../engine/run-pipeline.js';
import type { StageRedirect } from '../../types.js';
import type { AndOr } from '../syntax/nodes.js';
import { fromBytes } from '../syntax/source.js';
import type { RunnerApi } from './api.js';
import { type FdTable, OpenFile } from './fds.js';
import { lettingExitTrapRun, loneSubshell, runPendingTraps } from './job-signals.js';
import { giveStandIn } from './job-stand-in.js';
import type { Job } from './jobs-table.js';
import { sourceOf } from './record-step.js';
import { BreakSignal, ContinueSignal, ExitSignal, ReturnSignal } from './signals.js';
import { jobEnded } from './stops.js';

// How long `COMMAND &` waits for its job's first process when nothing says why it has none yet: a
// bound on the wait for $!, which is set when the process starts after all. (A job that runs a
// command inside safe-run first, or waits in a FIFO's open, says so at once: it gets a stand-in.)
const PID_WAIT_MS = 2000;

// COMMAND &: runs in a subshell of its own while the text goes on, its stdin the empty file (bash
// without job control). Returns 0 once the job's first process started ($! its id), ended, or waits on
// a FIFO, as bash returns at once after its fork.
export async function startBackground(r: RunnerApi, written: AndOr): Promise<number> {
  // bash 5.2 drops the `!` of a `&` command that is one pipeline (`! true & wait $!` gives 0); in an
  // and-or list it applies.
  const body = written.rest.length === 0 ? { ...written, first: { ...written.first, bang: false } } : written;
  const fds = r.sh.fds.copy();
  const empty = new OpenFile(fs.openSync('/dev/null', 'r'), { kind: 'file', path: '/dev/null' });
  fds.set(0, { kind: 'file', file: empty });
  empty.release();
  await startJob(r, sourceOf(r, body), fds, (sub) => sub.andOr(body), body);
  return 0;
}

// Runs `work` in a subshell with `fds` as a job of the shell's, and returns once its first process
// started ($! its id), it ended, or it waits on a FIFO. `body`: the command `work` runs, if one.
export async function startJob(
  r: RunnerApi,
  source: string,
  fds: FdTable,
  work: (sub: RunnerApi) => Promise<number>,
  body?: AndOr,
): Promise<Job> {
  const job = r.sh.jobs.create(source);
  job.ignored = new Set([...r.sh.traps].filter(([, action]) => action === '').map(([signal]) => signal));
  r.rt.jobs.add(job);
  // Its steps are its own, recorded when it runs them: never collected into the step of a pipeline
  // element it was started from (`cat <(yes) | head -1`), which is recorded before the job ends.
  const sub = r.subshell(fds, { job, collect: undefined });
  job.shell = sub.sh;
  if (body) job.adopt = loneSubshell(body);
  if (body) sub.sh.bareCommand = r.sh.subshell === 0 && loneSimple(body);
  // (A job of more than one simple command is bash's subshell in no loop: break there says so.)
  if (body && !loneSimple(body)) sub.sh.loopDepth = 0;
  job.done = (async () => {
    try {
      return await runJobShell(sub, work);
    } finally {
      sub.sh.fds.release();
    }
  })().then((status) => {
    job.finished(status);
    return status;
  });
  await firstProcess(job);
  if (job.pid === null) giveStandIn(job);
  r.sh.lastBackground = job.pid;
  // A process that started after the text went on is $! still, unless another job came since.
  if (job.pid === null)
    void job.firstPid.then((pid) => {
      if (pid !== null && r.sh.jobs.list.at(-1) === job) r.sh.lastBackground = pid;
    });
  return job;
}

function loneSimple({ first, rest }: AndOr): boolean {
  return rest.length === 0 && first.commands.length === 1 && first.commands[0]!.kind === 'simple';
}

// The job's shell from start to end: traps of signals sent to it while its last command ran, then
// its EXIT trap, as bash's subshell runs them; an `exit` anywhere gives the job's status, and so
// does a `return` of the function it was started in.
async function runJobShell(sub: RunnerApi, work: (sub: RunnerApi) => Promise<number>): Promise<number> {
  let status = await exitStatus(async () => {
    sub.sh.status = await work(sub);
    // Stopped in its last command (a builtin's FIFO open, say): it died of the signal.
    const stop = sub.place.job?.cancelled;
    if (stop) throw jobEnded(stop.signal);
    await runPendingTraps(sub);
    return sub.sh.status;
  });
  sub.sh.status = status;
  lettingExitTrapRun(sub);
  status = await exitStatus(async () => {
    await sub.runExitTrap();
    return status;
  });
  return status;
}

async function exitStatus(work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ExitSignal || error instanceof ReturnSignal) return error.status;
    // (break or continue of a loop around a lone simple command run with &: its job ends.)
    if (error instanceof BreakSignal || error instanceof ContinueSignal) return 0;
    throw error;
  }
}

// A job about to run a command inside safe-run (a builtin, a function, a compound command) before any
// program: its $! is not to wait for one.
export function noteInShell(r: RunnerApi): void {
  if (r.place.job?.pid === null) r.place.job.mayWait();
}

async function firstProcess(job: Job): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, PID_WAIT_MS);
  });
  try {
    await Promise.race([job.firstPid, job.done.catch(() => 1), job.waiting, bound]);
  } finally {
    clearTimeout(timer);
  }
}

// An engine run of a background job's: cancelled with the job, its process ids noted as $!, and a
// redirection to a FIFO noted as a wait that may need the text to go on. Returns what to call when it
// ended. (Outside a job: nothing.)
export function trackInJob(
  r: RunnerApi,
  handle: RunHandle,
  members: readonly { redirects: readonly StageRedirect[] }[],
): () => void {
  const { job } = r.place;
  if (!job) return () => {};
  if (job.pid === null) {
    const cwd = fromBytes(r.sh.cwd);
    const paths = members.flatMap((m) => m.redirects.flatMap((x) => (x.kind === 'file' ? [x.path] : [])));
    for (const file of paths)
      fs.promises.stat(path.resolve(cwd, file)).then(
        (stat) => stat.isFIFO() && job.mayWait(),
        () => {},
      );
  }
  return job.track(handle);
}
