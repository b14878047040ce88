import type { RunFacts } from '../facts/run-facts.js';
import type { Marker } from '../teardown/marker.js';
import { OwnGroups } from '../teardown/own-groups.js';
import { hasProc } from '../teardown/proc-read.js';
import type { Watchdog } from '../teardown/watchdog.js';
import type { Report, Settings } from '../types.js';
import { openStopper } from './fifo-open.js';
import { finishRun, type RunClock } from './finish-run.js';
import type { PipelinePipes } from './pipeline-pipes.js';
import type { ResolvedPlan } from './resolve-plan.js';
import type { RunControl } from './run-control.js';
import type { RunIO } from './run-io.js';
import { type StageRun, stageFinished } from './stage-run.js';
import { connectStreams, type StreamWiring } from './stage-streams.js';
import { startStages } from './start-stages.js';
import { Supervisor } from './supervisor.js';

// The supervise and finish phases of a run (run-pipeline.ts has the others): spawn the stages, watch
// them to their end under the limits, and build the report.
export interface SuperviseContext {
  marker: Marker;
  clock: RunClock;
  control: RunControl;
  facts: RunFacts | null;
  watchdog: Watchdog;
}

export async function superviseStages(
  resolved: ResolvedPlan,
  runs: readonly StageRun[],
  pipes: PipelinePipes,
  io: RunIO,
  ctx: SuperviseContext,
): Promise<Report> {
  const { settings } = resolved.plan;
  const { watchdog } = ctx;
  const supervisor = newSupervisor(resolved, runs, ctx.marker, watchdog);
  const { groups } = supervisor;
  let streams: StreamWiring | null = null;
  let finished = false;
  try {
    streams = connectStreams(runs, pipes, {
      settings,
      secrets: resolved.secrets,
      stdout: io.stdout ?? null,
      stderr: io.stderr ?? null,
      linePrefix: io.linePrefix ?? null,
      wholeStderr: io.wholeStderr === true,
      supervisor,
    });
    const stopper = openStopper(ctx.control.interrupt, settings, ctx.clock.t0);
    try {
      await startStages(runs, { pipes, supervisor, watchdog, groups, facts: ctx.facts, stop: stopper.stop });
    } finally {
      stopper.dispose();
    }
    ctx.control.attach(supervisor);
    pipes.closeStageEnds();
    supervisor.start();
    supervisor.watchReopens(pipes.linkIds);
    await allFinished(runs, pipes, settings, supervisor);
    supervisor.warnings.push(...watchdog.problems);
    const parts = { supervisor, streams, facts: ctx.facts, streamed: Boolean(io.stdout) };
    const report = await finishRun(resolved, runs, ctx.clock, parts);
    finished = true;
    return report;
  } finally {
    // Only a bug in safe-run gets here unfinished: nothing it started may outlive it.
    if (!finished) supervisor.abort();
    streams?.detach();
    supervisor.dispose();
    for (const run of runs) for (const reader of run.readers) if (reader.isOpen()) reader.abandon();
  }
}

// Every stage ended and its pipes drained. An empty group's id may be reused: the run and its
// watchdog forget it as soon as it is seen empty.
function allFinished(
  runs: readonly StageRun[],
  pipes: PipelinePipes,
  settings: Settings,
  supervisor: Supervisor,
): Promise<unknown> {
  return Promise.all(
    runs.map(async (run, i) => {
      const link = pipes.linkIds[i];
      await Promise.all([stageFinished(run, settings, supervisor), link && supervisor.drainLink(run, link)]);
      if (run.pid !== null) supervisor.groups.owned(run.pid, false);
    }),
  );
}

// The stage groups it signals are checked before every signal; one seen empty is forgotten, by the
// run and by the watchdog (its id may be reused).
function newSupervisor(
  resolved: ResolvedPlan,
  runs: readonly StageRun[],
  marker: Marker,
  watchdog: Watchdog,
): Supervisor {
  const groups = new OwnGroups(marker);
  groups.onGone((pgid) => watchdog.unwatchGroup(pgid));
  const supervisor = new Supervisor(resolved.plan.settings, runs, marker, groups);
  if (!hasProc()) {
    supervisor.warnings.push(
      'no /proc on this platform: processes that escaped their stage group and holders of open pipes cannot be found',
    );
  }
  supervisor.warnings.push(...resolved.warnings);
  return supervisor;
}
