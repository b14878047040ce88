import { formatDuration, listFirst } from '../format-units.js';
import type { LeftoverLog } from '../teardown/leftover-log.js';
import type { Marker } from '../teardown/marker.js';
import { findHoldersOf } from '../teardown/pipe-holders.js';
import type { ProcInfo } from '../teardown/proc-read.js';
import { findProcesses } from '../teardown/proc-scan.js';
import { killProcesses } from '../teardown/stage-teardown.js';
import type { Settings } from '../types.js';
import type { PipeId } from './pipeline-pipes.js';
import type { StageRun } from './stage-run.js';

export interface DrainContext {
  settings: Settings;
  runs: readonly StageRun[];
  marker: Marker;
  leftovers: LeftoverLog;
  warnings: string[];
}

// A stage's leader exited but `pipe` (its output pipes, or the pipe into the next stage) stayed open
// for the drain timeout: name who holds it, and kill them (or, with --leftovers keep, let them be).
export async function settleHeldPipe(
  run: StageRun,
  pipe: string,
  holders: readonly ProcInfo[],
  ctx: DrainContext,
): Promise<void> {
  const { settings } = ctx;
  const names = listFirst(holders.map((holder) => `${holder.pid} (${holder.command})`));
  const who = holders.length > 0 ? `held by ${names}` : 'holder not identified';
  const why = `held ${pipe === 'its output pipes' ? 'a stage output pipe' : pipe} open after the stage exited`;
  let action = 'left running (--leftovers keep)';
  if (settings.leftovers === 'kill') {
    const stopped = await killProcesses(ctx.leftovers, holders, {
      runs: ctx.runs,
      killAfterMs: settings.killAfterMs,
      why,
    });
    action = killedInWords(stopped.filter((info) => info.survived).length, holders.length);
  } else {
    for (const holder of holders) ctx.leftovers.kept(holder, run.spec.name, why);
  }
  ctx.warnings.push(
    `stage "${run.spec.name}": its leader exited but ${pipe} stayed open for ` +
      `${formatDuration(settings.drainTimeoutMs)}, ${who}; ${holders.length > 0 ? action : 'stopped waiting'}`,
  );
}

// "killed" is said of a process only once it was seen gone (the kill primitive looks after SIGKILL).
function killedInWords(survivors: number, all: number): string {
  if (survivors === 0) return 'killed';
  if (survivors === all) return 'still running after SIGKILL';
  return `${all - survivors} killed, ${survivors} still running after SIGKILL`;
}

// The pipe from `run` into the next stage never passes through safe-run, so its drain is watched
// here: once run's leader exited, the next stage gets the drain timeout to see EOF (or to end). If it
// still runs then, whoever still holds the pipe's write end is keeping EOF from it.
//
// A holder found here is ours to stop even without the run's marker (`env -i`, setsid): the pipe is
// a FIFO safe-run created for this run in a private directory and unlinked at once, so no process
// could open it by name; the only way to hold its write end is to have inherited it from the stage
// safe-run gave it to. Only the write end is looked for, so the next stage (the reader) is never
// among them, and safe-run itself is never listed.
export async function drainLink(
  run: StageRun,
  next: StageRun,
  link: PipeId,
  ctx: DrainContext,
): Promise<void> {
  await run.exited;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ctx.settings.drainTimeoutMs);
  });
  try {
    const first = await Promise.race([next.exited.then(() => 'ended' as const), timedOut]);
    if (first === 'ended' || next.exit !== null) return;
  } finally {
    clearTimeout(timer);
  }
  const candidates = findProcesses({ marker: ctx.marker }).map((info) => info.pid);
  const holders = findHoldersOf(link, { candidates, end: 'write' });
  if (holders.length === 0) return;
  const pipe = `the pipe to stage ${next.index} "${next.spec.name}"`;
  await settleHeldPipe(run, pipe, holders, ctx);
}
