import type { RunnerApi } from './api.js';
import { lettingExitTrapRun } from './job-signals.js';
import type { Shell } from './shell.js';
import { BreakSignal, ContinueSignal, ExitSignal, ReturnSignal } from './signals.js';

// The EXIT trap's action, run by `run`: $? is kept unless the trap exits, and a bare `exit` anywhere
// in it (a function it calls, a subshell, eval) gives the status the trap began with, as bash's does
// (`trap 'rm -f "$tmp"; exit' EXIT` keeps a failing script's status).
export async function inExitTrap(sh: Shell, run: () => Promise<number>): Promise<void> {
  const status = sh.status;
  const outer = sh.exitTrapStatus;
  sh.exitTrapStatus = status;
  try {
    await run();
  } catch (error) {
    // An error that ends the shell (an unset variable under set -u, ${x:?}) ends the trap, and the
    // shell exits with the status the trap began with, as bash's does.
    if (error instanceof ExitSignal && error.why === 'error')
      throw new ExitSignal(status, 'error', error.at, error.discard);
    throw error;
  } finally {
    sh.exitTrapStatus = outer;
  }
  sh.status = status;
}

// The status a subshell's work ends with, `exit` included, and a `return` of the function it runs in
// (`f() { (cd dir || return 1; make); }`), which ends only the subshell, as in bash, and so do break
// and continue; a stop of the run goes on up.
export async function endingStatus(work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ReturnSignal) return error.status;
    // (break or continue of a loop around a $( ) or a simple command's pipeline element ends it.)
    if (error instanceof BreakSignal || error instanceof ContinueSignal) return 0;
    if (!(error instanceof ExitSignal) || error.why === 'stopped') throw error;
    return error.status;
  }
}

// A subshell (`( list )`, a pipeline's element) ends with `status`: its EXIT trap runs with that as
// $?, and an `exit` there ends the subshell only, with its status. Its descriptors go.
async function endSubshell(sub: RunnerApi, status: number): Promise<number> {
  sub.sh.status = status;
  lettingExitTrapRun(sub);
  try {
    return await endingStatus(async () => {
      await sub.runExitTrap();
      return status;
    });
  } finally {
    sub.sh.fds.release();
  }
}

// Runs a subshell's work to its end, EXIT trap included. A stop of the run still runs the trap
// (within the stop's grace) and then goes on up.
export async function runSubshell(sub: RunnerApi, work: () => Promise<number>): Promise<number> {
  let status: number;
  try {
    status = await endingStatus(work);
  } catch (error) {
    await endSubshell(sub, sub.sh.status);
    throw error;
  }
  return endSubshell(sub, status);
}
