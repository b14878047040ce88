import { RequestError } from '../errors.js';
import { RunFacts } from '../facts/run-facts.js';
import type { HangReport } from '../hang/hang-report.js';
import { monotonicMs } from '../monotonic-ms.js';
import { stopReason } from '../outcome-text/render.js';
import { createMarker, type Marker } from '../teardown/marker.js';
import { cgroupToPrime } from '../teardown/run-cgroup.js';
import type { Watchdog } from '../teardown/watchdog.js';
import type { CancelSource, Plan, Report, StopFacts } from '../types.js';
import { type RunClock, reportNothingStarted } from './finish-run.js';
import { openStdin } from './open-stdin.js';
import { PipelinePipes, pipeCount } from './pipeline-pipes.js';
import type { StageProgress } from './progress.js';
import { type ResolvedPlan, resolvePlan } from './resolve-plan.js';
import { RunControl } from './run-control.js';
import type { RunIO } from './run-io.js';
import { type FifoOrder, RunSupport } from './run-support.js';
import { factsStageOf, StageRun } from './stage-run.js';
import { superviseStages } from './supervise-stages.js';
import { UNNAMED_CWD } from './working-directory.js';

export type { RunIO } from './run-io.js';

export interface RunHandle {
  readonly report: Promise<Report>;
  // Forwards a signal to every stage, then escalates to SIGKILL after kill-after (safe-run was stopped).
  // `by`: who asked, when it was not a signal to safe-run (the report says so instead).
  cancel(signal: NodeJS.Signals, by?: CancelSource): void;
  // Who waits for whom right now, without stopping anything; null before the stages exist.
  inspect(): HangReport | null;
  // What each stage is doing now (for a live view or a heartbeat); empty before the stages exist.
  progress(): StageProgress[];
}

// What a run shares with the runs of the same process before and after it (src/engine/run-support.ts),
// and whether a run comes after it (then the next run's FIFOs are made while this one runs).
interface SharedSupport {
  support: RunSupport;
  more: boolean;
  // Where the steps of a -c text keep the descriptor of --stdin FILE, opened by the first run that
  // needs it and read by every later one, as bash opens `< FILE` once for the whole text (a second
  // open would start the file over, or wait for a new writer of a FIFO). The text's runner closes it.
  stdin?: { fd: number | null };
}

// Runs a validated plan. Problems with the request reject with RequestError before anything starts;
// everything that happens to a stage is data in the report. The run goes through four phases, each
// releasing what it opened on every path: prepare (resolve, preflight, facts, stdin), wire (pipes,
// sinks, readers), supervise (spawn, limits, signals, drain), finish (leftovers, report).
export function startRun(plan: Plan, io: RunIO = {}, shared: SharedSupport | null = null): RunHandle {
  // A -c plan makes its stages step by step: it runs through run()/startRun() of src/run.ts.
  if (plan.stages.length === 0) {
    throw new RequestError(
      'plan.no-stages',
      'this plan has no stages of its own; run it with run() from safe-run',
    );
  }
  const marker = createMarker();
  const t0 = monotonicMs();
  const clock: RunClock = { startedAt: new Date(), t0, limitT0: io.limitSince ?? t0 };
  const control = new RunControl();
  const report = runPhases(plan, io, { marker, clock, control }, shared).finally(() =>
    marker.window?.close(),
  );
  return {
    report,
    cancel: (signal, by) => control.cancel(signal, by),
    inspect: () => control.inspect(),
    progress: () => control.progress(),
  };
}

export function run(plan: Plan, io: RunIO = {}): Promise<Report> {
  return startRun(plan, io).report;
}

interface RunContext {
  marker: Marker;
  clock: RunClock;
  control: RunControl;
}

async function runPhases(
  plan: Plan,
  io: RunIO,
  ctx: RunContext,
  shared: SharedSupport | null,
): Promise<Report> {
  const { clock, control } = ctx;
  // Prepare: nothing is started unless every stage can be.
  const resolved = resolvePlan(plan, ctx.marker.value);
  const runs = resolved.stages.map((stage) => new StageRun(stage));
  control.watch(runs, resolved.secrets);
  // A directory with no UTF-8 name has no name a fact could be kept under.
  const named = runs.every((run) => run.cwd !== UNNAMED_CWD);
  const facts =
    plan.settings.facts && named
      ? new RunFacts(plan.settings.facts, runs.map(factsStageOf), resolved.secrets)
      : null;
  facts?.recordPreflight(runs.map(factsStageOf));
  const nothing = (timeLimit: StopFacts | null = null) =>
    reportNothingStarted(resolved, runs, clock, { interrupted: control.cancelRequest, timeLimit, facts });
  if (!resolved.startable || control.cancelRequest) return nothing();
  // The watchdog (started now, or earlier for the whole process) makes the run's FIFOs while Node goes
  // on (opening stdin may wait for a writer). It knows the run's marker before any stage exists: the
  // marker line is written into the pipe whose EOF makes it act before the FIFOs are asked for, and
  // stages are spawned only once they exist.
  const support = shared?.support ?? new RunSupport();
  const watchdog = support.lease(ctx.marker);
  const fifos = support.take(pipeCount(runs.length));
  if (shared?.more) support.prepare(pipeCount(runs.length));
  // After the FIFOs are asked for: the watchdog waits in the move before it reads its next line.
  const home = cgroupToPrime();
  if (home !== null) support.warden.primeCgroup(home);
  try {
    const sharedStdin = shared?.stdin ?? null;
    return await wireStages(resolved, runs, io, { ...ctx, facts, watchdog, fifos, nothing, sharedStdin });
  } finally {
    watchdog.disarm();
    support.release(fifos);
    if (!shared) support.close();
  }
}

interface WireContext extends RunContext {
  facts: RunFacts | null;
  watchdog: Watchdog;
  fifos: FifoOrder;
  sharedStdin: { fd: number | null } | null;
  nothing: (timeLimit?: StopFacts | null) => Report;
}

async function wireStages(
  resolved: ResolvedPlan,
  runs: readonly StageRun[],
  io: RunIO,
  ctx: WireContext,
): Promise<Report> {
  const { plan } = resolved;
  const { clock, control } = ctx;
  // Opened after preflight: opening a FIFO is already a side effect on its writer.
  const shared = ctx.sharedStdin;
  const stdin = shared?.fd ?? (await openStdin(plan, control.interrupt, clock.limitT0));
  if (shared && typeof stdin === 'number') shared.fd = stdin;
  if (typeof stdin === 'object') {
    for (const run of runs) {
      run.stoppedAs = control.cancelRequest ? 'cancelled' : 'timeout';
      const afterMs = Math.round(monotonicMs() - clock.t0);
      run.stopDetail = {
        reason: stopReason(stdin.stopped.cause, stdin.stopped.fifo),
        ...stdin.stopped,
        afterMs,
        signals: [],
        snapshot: [],
        deadlock: null,
        waitingForStage: null,
      };
    }
    return ctx.nothing(control.cancelRequest ? null : stdin.stopped);
  }
  // Wire: the pipes are safe-run's until each is handed to a stage or a reader.
  const made = await ctx.fifos.made;
  const pipes = new PipelinePipes(runs.length, stdin, { batch: ctx.fifos.batch, made }, shared !== null);
  try {
    return await superviseStages(resolved, runs, pipes, io, ctx);
  } finally {
    pipes.release();
  }
}
