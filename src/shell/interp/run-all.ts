import { monotonicMs } from '../../monotonic-ms.js';
import type { StepReport } from '../../types.js';
import type { Script } from '../syntax/nodes.js';
import { readAnsiLine } from './ansi-lines.js';
import { takeSignals } from './builtins/self-signal.js';
import { checkExtglobLine } from './extglob-check.js';
import type { Job } from './jobs-table.js';
import { recordSkippedStmt } from './record-step.js';
import { runLine, warnLine } from './run-line.js';
import type { Runner } from './runner.js';
import { type Ending, ExitSignal } from './signals.js';
import { stopReason } from './stops.js';

// How long a process substitution's list still running at the text's end may take to end by itself.
const SUBSTITUTION_GRACE_MS = 5000;
// ... ending this long before the run's time limit, if it has one.
const DEADLINE_MARGIN_MS = 250;

function skipReason(why: ExitSignal['why']): StepReport['skippedBecause'] {
  return why === 'errexit' || why === 'error' ? why : 'exit';
}

export async function runAll(runner: Runner, script: Script): Promise<Ending> {
  let ending: Ending;
  let reached = 0;
  try {
    // The last line's error, when bash discarded it: the text ends on it.
    let discarded: Ending['at'] = null;
    let warned = 0;
    for (let k = 0; k < script.stmts.length; k++) {
      reached = k + 1;
      warned = await warnLine(runner, script.stmts, k, script.warnings, warned);
      checkExtglobLine(runner, script.stmts, k);
      readAnsiLine(runner, script.stmts, k);
      const line = await runLine(runner, script.stmts, k, true);
      k = line.last;
      discarded = line.discarded;
    }
    await takeSignals(runner);
    ending = { status: runner.sh.status, why: 'end', at: discarded };
  } catch (error) {
    if (!(error instanceof ExitSignal)) throw error;
    runner.sh.status = error.status;
    ending = { status: error.status, why: error.why, at: error.at };
    const because = error.why === 'stopped' ? stopReason(runner.rt) : skipReason(error.why);
    for (const stmt of script.stmts.slice(reached)) recordSkippedStmt(runner, stmt, because);
  }
  try {
    await runner.runExitTrap();
  } catch (error) {
    if (!(error instanceof ExitSignal)) throw error;
    ending = { status: error.status, why: error.why === 'stopped' ? 'stopped' : ending.why };
  }
  runner.rt.stepsOfText = runner.rt.recorder.steps.length;
  // The shell's own descriptors go first: `exec > >(tee log)` left tee's input held by safe-run itself,
  // so tee could not end before it was stopped.
  runner.sh.fds.release();
  await endJobs(runner);
  return ending;
}

// Background jobs still running when the text ends are the run's leftovers: stopped (the report says
// so), as every process is that outlives its stage. A process substitution's list first gets a while
// to end by itself: it does once the command that used it is done (its input ends, or its reader
// went), and bash leaves it to, so its output still comes (`tee >(wc -c) >/dev/null` in a pipeline,
// whose lists no `wait` of the text waits for; under load they had not started when the text ended).
async function endJobs(runner: Runner): Promise<void> {
  const { rt } = runner;
  const lists = rt.jobs.running().filter((job) => job.substitution);
  // Never into the run's time limit: a list stopped by it would read as the run's own timeout.
  const left =
    rt.deadline === null ? Number.POSITIVE_INFINITY : rt.deadline - monotonicMs() - DEADLINE_MARGIN_MS;
  const grace = Math.min(SUBSTITUTION_GRACE_MS, left);
  if (lists.length > 0 && grace > 0) await settleWithin(lists, grace);
  for (const job of rt.jobs.running()) job.cancel('SIGTERM', 'text-end');
  await Promise.all(rt.jobs.list.map((job) => job.done.catch(() => 1)));
}

async function settleWithin(jobs: readonly Job[], ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([Promise.all(jobs.map((job) => job.done.catch(() => 1))), bound]);
  clearTimeout(timer);
}
