import type { RunFacts } from '../facts/run-facts.js';
import type { Watchdog } from '../teardown/watchdog.js';
import type { StageError } from '../types.js';
import { type PipelinePipes, stageStdio } from './pipeline-pipes.js';
import { spawnStage } from './spawn-stage.js';
import { factsStageOf, type StageRun } from './stage-run.js';
import type { Supervisor } from './supervisor.js';

export interface StartContext {
  pipes: PipelinePipes;
  supervisor: Supervisor;
  watchdog: Watchdog;
  facts: RunFacts | null;
}

// Spawns every stage, in order, each into its own process group, and hands it to the supervisor and
// the watchdog. A stage the kernel refuses to start is recorded as data on its StageRun.
// Once one is refused, the stages after it are not spawned (they are skipped) and those already
// running are stopped: a pipeline with a hole in it would wait forever on the missing stage's pipes.
export function startStages(runs: readonly StageRun[], ctx: StartContext): void {
  for (const [i, run] of runs.entries()) {
    if (runs.some((other) => other.spawnError !== null)) run.markNotSpawned();
    else startStage(run, i, ctx);
  }
  const refused = runs.find((run) => run.spawnError !== null);
  if (refused) ctx.supervisor.onStartRefused(refused);
}

function startStage(run: StageRun, i: number, ctx: StartContext): void {
  const { supervisor, watchdog, facts } = ctx;
  const resolution = run.resolution;
  if (resolution?.ok) {
    try {
      const spawned = spawnStage(run.spec, resolution, stageStdio(ctx.pipes, i), run.env);
      run.child = spawned.child;
      run.pid = spawned.pid;
    } catch (error) {
      run.spawnError = spawnFailure(error as NodeJS.ErrnoException);
    }
  }
  run.startedAt = new Date();
  run.startNs = performance.now();
  const child = run.child;
  if (!child) {
    run.markExited(null, null);
    return;
  }
  child.on('error', (error: NodeJS.ErrnoException) => {
    // Only a failure to create the process; a started stage's fate comes from 'exit'.
    if (run.pid === null) {
      run.spawnError = spawnFailure(error);
      run.markExited(null, null);
      supervisor.onStartRefused(run);
    }
  });
  child.on('exit', (code, signal) => {
    run.endNs = performance.now();
    run.markExited(code, signal);
    supervisor.onStageExit(run);
  });
  if (run.pid !== null) {
    facts?.recordStarted(factsStageOf(run));
    watchdog.watchGroup(run.pid);
    supervisor.watch(run);
  }
}

// The kernel refused to start a program that preflight accepted (E2BIG, ETXTBSY, ENOMEM...).
function spawnFailure(error: NodeJS.ErrnoException): StageError {
  const code = error.code ?? 'EUNKNOWN';
  return {
    code,
    message: `the kernel refused to start it: ${error.message}`,
    exitCode: code === 'ENOENT' ? 127 : 126,
    during: 'start',
  };
}
