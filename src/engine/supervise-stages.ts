import fs from 'node:fs';
import type { RunFacts } from '../facts/run-facts.js';
import type { Marker } from '../teardown/marker.js';
import { OwnGroups } from '../teardown/own-groups.js';
import { hasProc } from '../teardown/proc-read.js';
import { openRunCgroup } from '../teardown/run-cgroup.js';
import type { Watchdog } from '../teardown/watchdog.js';
import type { Report, Settings } from '../types.js';
import { openStopper } from './fifo-open.js';
import { finishRun, type RunClock } from './finish-run.js';
import type { PipeId, PipelinePipes } from './pipeline-pipes.js';
import type { ResolvedPlan } from './resolve-plan.js';
import type { RunControl } from './run-control.js';
import type { RunIO } from './run-io.js';
import { type StageRun, stageFinished } from './stage-run.js';
import { connectStreams, type StreamWiring } from './stage-streams.js';
import { startStages } from './start-stages.js';
import { Supervisor } from './supervisor.js';

// The supervise and finish phases of a run (run-pipeline.ts has the others): spawn the stages, watch
// them to their end under the limits, and build the report.
interface SuperviseContext {
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
  const supervisor = newSupervisor(resolved, runs, ctx.marker, watchdog, ctx.clock.limitT0);
  const { groups } = supervisor;
  let streams: StreamWiring | null = null;
  let finished = false;
  try {
    streams = connectStreams(runs, pipes, {
      settings,
      ...maskedStreams(resolved.secrets, io.masks ?? null),
      stdout: io.stdout ?? null,
      stderr: io.stderr ?? null,
      linePrefix: io.linePrefix ?? null,
      style: io.lines ?? null,
      wholeStderr: io.wholeStderr === true,
      supervisor,
    });
    // Pipes handed in from outside the run (an interpreter's pipe to a builtin) are links too.
    const links = [...pipes.linkIds, ...handedPipes(runs)];
    const stopper = openStopper(ctx.control.interrupt, settings, ctx.clock.limitT0);
    try {
      await startStages(runs, { pipes, supervisor, watchdog, groups, facts: ctx.facts, stop: stopper.stop });
    } finally {
      stopper.dispose();
    }
    ctx.control.attach(supervisor);
    pipes.closeStageEnds();
    supervisor.start();
    supervisor.watchReopens(links);
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
    releaseCgroup(supervisor.groups, watchdog, finished && settings.leftovers === 'keep');
    for (const run of runs) for (const reader of run.readers) if (reader.isOpen()) reader.abandon();
  }
}

// Every stage ended and its pipes drained. An empty group's id may be reused: the run and its
// watchdog forget the groups seen empty then (all at once: one look at the sessions for all of them),
// and every half second before (OwnGroups).
async function allFinished(
  runs: readonly StageRun[],
  pipes: PipelinePipes,
  settings: Settings,
  supervisor: Supervisor,
): Promise<void> {
  await Promise.all(
    runs.map((run, i) => {
      const link = pipes.linkIds[i];
      return Promise.all([stageFinished(run, settings, supervisor), link && supervisor.drainLink(run, link)]);
    }),
  );
  supervisor.groups.settle();
}

// The stage groups it signals are checked before every signal; one seen empty is forgotten, by the
// run and by the watchdog (its id may be reused).
function newSupervisor(
  resolved: ResolvedPlan,
  runs: readonly StageRun[],
  marker: Marker,
  watchdog: Watchdog,
  limitT0: number,
): Supervisor {
  const groups = new OwnGroups(marker);
  groups.onGone((pgid) => watchdog.unwatchGroup(pgid, { gone: true }));
  if (hasProc()) {
    const claim = {
      announce: (dir: string) => watchdog.watchCgroup(dir),
      disown: (dir: string) => watchdog.forgetCgroup(dir),
    };
    groups.cgroup = openRunCgroup(`safe-run-${marker.value}`, claim);
  }
  const supervisor = new Supervisor(resolved.plan.settings, runs, marker, groups, limitT0);
  if (!hasProc()) {
    supervisor.warnings.push(
      'no /proc on this platform: processes that escaped their stage group and holders of open pipes cannot be found',
    );
  }
  supervisor.warnings.push(...resolved.warnings);
  return supervisor;
}

// The run's cgroup goes with the run; what --leftovers keep kept moves back to safe-run's own cgroup
// first. One that cannot be removed still holds processes that survived SIGKILL (stuck in the kernel),
// which the report lists; the watchdog forgets it with the rest of the run.
function releaseCgroup(groups: OwnGroups, watchdog: Watchdog, keep: boolean): void {
  const cgroup = groups.cgroup;
  if (!cgroup) return;
  if (cgroup.release(keep)) watchdog.forgetCgroup(cgroup.dir);
  groups.cgroup = null;
}

// The secrets the streams mask: the run's, and the values stages register with ::add-mask::, which
// join the list (read again by every masker of the run) and the caller's `masks` when they appear.
function maskedStreams(
  secrets: readonly string[],
  masks: string[] | null,
): { secrets: readonly string[]; onMask: ((value: string) => void) | null } {
  if (masks === null) return { secrets, onMask: null };
  const live = [...new Set([...secrets, ...masks])];
  const onMask = (value: string) => {
    if (!masks.includes(value)) masks.push(value);
    if (!live.includes(value)) live.push(value);
  };
  return { secrets: live, onMask };
}

// The FIFOs given to stages as descriptors (`descriptor` redirections of a pipe), read before the
// stages take them over.
function handedPipes(runs: readonly StageRun[]): PipeId[] {
  const ids: PipeId[] = [];
  for (const run of runs)
    for (const redirect of run.spec.redirects ?? []) {
      if (redirect.kind !== 'descriptor' || redirect.what.kind !== 'pipe') continue;
      try {
        const stat = fs.fstatSync(redirect.from, { bigint: true });
        if (stat.isFIFO()) ids.push({ dev: stat.dev, ino: stat.ino });
      } catch {
        // closed already: nothing can reopen it
      }
    }
  return ids;
}
