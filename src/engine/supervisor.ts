import type { HangReport } from '../hang/hang-report.js';
import { completeStops, lookAtStages, snapshotRun } from '../hang/run-snapshot.js';
import { monotonicMs } from '../monotonic-ms.js';
import { classifyEnding } from '../policy/stage-status.js';
import { LeftoverLog } from '../teardown/leftover-log.js';
import type { Marker } from '../teardown/marker.js';
import type { OwnGroups } from '../teardown/own-groups.js';
import { dealWithLeftovers, findHolders, signalEscaped } from '../teardown/stage-teardown.js';
import type { CancelSource, Interruption, Leftover, Settings, StopCause } from '../types.js';
import { DeadlockWatch } from './deadlock-watch.js';
import { IdleClock } from './idle-clock.js';
import { interruptionCause } from './interruption.js';
import { type DrainContext, drainLink, settleHeldPipe } from './pipe-drain.js';
import type { PipeId } from './pipeline-pipes.js';
import { ReopenWatch } from './reopen-watch.js';
import type { DrainWatcher, StageRun } from './stage-run.js';
import { type StopContext, type StopReason, stopStage } from './stop-stage.js';

// Watches a running pipeline: time limits, output limits, fail-fast, signals to safe-run, and the
// drain of pipes after a leader exits. It only ever signals process groups and marked processes.
export class Supervisor implements DrainWatcher {
  readonly warnings: string[] = [];
  private readonly settings: Settings;
  private readonly runs: readonly StageRun[];
  private readonly marker: Marker;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly reopens: ReopenWatch;
  private readonly t0 = monotonicMs();
  private readonly idle = new IdleClock();
  private interrupted: Interruption | null = null;
  private timeLimit: StopCause | null = null;
  private readonly leftovers = new LeftoverLog();
  // Stage groups sent their first signal, so that the last sweep does not send it again.
  private readonly termedGroups = new Set<number>();
  // What stopping a stage needs of this run (stop-stage.ts), made once.
  private readonly stopContext: StopContext;
  // --on-deadlock stop: every look at the run is checked for a deadlock.
  private readonly deadlocks: DeadlockWatch | null;

  constructor(
    settings: Settings,
    runs: readonly StageRun[],
    marker: Marker,
    readonly groups: OwnGroups,
    // What the pipeline's time limit counts from (monotonicMs).
    private readonly limitT0: number = monotonicMs(),
  ) {
    this.settings = settings;
    this.runs = runs;
    this.marker = marker;
    this.reopens = new ReopenWatch(runs);
    const onDeadlock = () => this.stopAll('timeout', { kind: 'deadlock' });
    this.deadlocks = settings.onDeadlock === 'stop' ? new DeadlockWatch(onDeadlock) : null;
    const { leftovers, t0, termedGroups } = this;
    this.stopContext = {
      settings,
      marker,
      groups,
      leftovers,
      t0,
      termedGroups,
      after: (ms, action) => this.after(ms, action),
    };
  }

  start(): void {
    const { timeoutMs, idleTimeoutMs } = this.settings;
    if (timeoutMs !== null) {
      const left = timeoutMs - (monotonicMs() - this.limitT0);
      this.after(left, () => this.stopAll('timeout', { kind: 'pipeline-timeout', limitMs: timeoutMs }));
    }
    if (idleTimeoutMs !== null) {
      const tick = Math.max(20, Math.min(1000, Math.floor(idleTimeoutMs / 4)));
      this.every(tick, () => this.checkIdle(idleTimeoutMs));
    }
    const watch = this.deadlocks;
    if (watch) this.every(250, () => watch.due(this.idle.quietMs()) && this.snapshot());
    const promptMs = this.settings.promptWaitMs;
    if (promptMs !== null)
      this.every(Math.max(50, Math.floor(promptMs / 4)), () => this.checkPrompts(promptMs));
  }

  private every(ms: number, action: () => void): void {
    this.timers.add(setInterval(action, ms));
  }

  // Stages that reopen a link by name (/dev/stdin) after its other end closed: see reopen-watch.ts.
  watchReopens(links: readonly PipeId[]): void {
    this.reopens.start(links);
  }

  // A stage that went quiet right after printing a question waits for an answer nobody will type.
  private checkPrompts(quietMs: number): void {
    for (const run of this.runs) {
      const waiting = run.running ? run.prompt.waitingPrompt(quietMs) : null;
      if (waiting !== null && this.timeLimit === null) {
        this.stopAll('timeout', waiting);
        return;
      }
    }
  }

  watch(run: StageRun): void {
    const limit = run.spec.timeoutMs;
    if (limit !== null) {
      this.after(limit, () =>
        this.stop(run, 'timeout', 'SIGTERM', { kind: 'stage-timeout', limitMs: limit }),
      );
    }
  }

  noteActivity(run?: StageRun, chunk?: Buffer): void {
    this.idle.note();
    if (run && chunk && this.settings.promptWaitMs !== null) run.prompt.push(chunk);
  }

  stopForLimit(run: StageRun): void {
    if (this.settings.onLimit === 'kill') this.stop(run, 'limit', 'SIGTERM', { kind: 'output-limit' });
  }

  onStageExit(run: StageRun): void {
    this.reopens.quicken();
    if (!this.settings.failFast || run.exit === null || run.stoppedAs !== null) return;
    const status = classifyEnding(
      { ...run.exit, exitCode: run.exit.code, stoppedAs: null },
      run.spec.okCodes,
    );
    if (status === 'failed' || status === 'signaled') {
      const cause: StopCause = { kind: 'fail-fast', stage: run.spec.name, status };
      for (const other of this.runs) if (other !== run) this.stop(other, 'cancelled', 'SIGTERM', cause);
    }
  }

  // safe-run failed internally: SIGKILL to every stage group and escaped process, at once.
  abort(): void {
    this.stopAll('cancelled', { kind: 'internal-error' }, 'SIGKILL');
  }

  // The kernel refused to start a stage after others had started: stop those, at once.
  onStartRefused(refused: StageRun): void {
    const code = `${refused.spawnError?.code}`;
    const cause = { kind: 'start-refused', stage: refused.index, name: refused.spec.name, code } as const;
    for (const run of this.runs) if (run !== refused) this.stop(run, 'cancelled', 'SIGTERM', cause);
  }

  cancel(signal: NodeJS.Signals, by?: CancelSource): void {
    this.interrupted ??= { signal, by };
    // SIGQUIT to safe-run means "stop with a report", not "dump core" for every stage.
    this.stopAll('cancelled', interruptionCause({ signal, by }), signal === 'SIGQUIT' ? 'SIGTERM' : signal);
  }

  // Who waits for whom right now, across every process of the run (docs/debugging-hangs.md).
  snapshot(): HangReport {
    const report = snapshotRun(this.stageGroups(), this.marker);
    this.deadlocks?.seen(report);
    return report;
  }

  private stageGroups() {
    return this.runs.filter((run) => run.pid !== null).map((run) => ({ index: run.index, pid: run.pid! }));
  }

  timeLimitFired(): StopCause | null {
    return this.timeLimit;
  }

  interruptedBy(): Interruption | null {
    return this.interrupted;
  }

  async onDrainTimeout(run: StageRun): Promise<void> {
    const holders = findHolders(run.openReadFds(), this.marker);
    await settleHeldPipe(run, 'its output pipes', holders, this.drainContext());
  }

  // The pipe from `run` into the stage after it, once run's leader exited.
  drainLink(run: StageRun, link: PipeId): Promise<void> {
    const next = this.runs[run.index];
    return next ? drainLink(run, next, link, this.drainContext()) : Promise.resolve();
  }

  private drainContext(): DrainContext {
    const { settings, runs, marker, leftovers, warnings } = this;
    return { settings, runs, marker, leftovers, warnings };
  }

  // Clears every timer: on every path, an exception included.
  dispose(): void {
    this.reopens.stop();
    this.groups.close();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  // Ends the run: clears timers and deals with every process still carrying the run's marker.
  async finish(): Promise<Leftover[]> {
    this.dispose();
    await dealWithLeftovers(this.leftovers, {
      runs: this.runs,
      groups: this.groups,
      marker: this.marker,
      killAfterMs: this.settings.killAfterMs,
      keep: this.settings.leftovers === 'keep',
      why: 'outlived its stage',
      alreadyTermed: { pgids: [...this.termedGroups], processes: [] },
    });
    return this.leftovers.list();
  }

  // One stage, with the signal sequence of stop-stage.ts. The look before the signal reads the stage
  // groups' trees only (within a budget); the rest is read after it.
  private stop(run: StageRun, reason: StopReason, signal: NodeJS.Signals, cause: StopCause): void {
    const look = lookAtStages(this.stageGroups());
    const had = run.stopDetail !== null;
    stopStage(run, { reason, signal, cause }, this.stopContext, look.report);
    completeStops(look, !had && run.stopDetail ? [run] : [], this.stageGroups(), this.marker);
  }

  // The whole pipeline: every stage group, and every process that escaped one (found by the marker),
  // first with `signal`, then SIGKILL after kill-after. The groups are signalled first, the escaped
  // processes (which need a scan) after.
  private stopAll(reason: StopReason, cause: StopCause, signal: NodeJS.Signals = 'SIGTERM'): void {
    if (reason === 'timeout') this.timeLimit ??= cause;
    const look = lookAtStages(this.stageGroups());
    const fresh = this.runs.filter((run) => run.stopDetail === null);
    for (const run of this.runs) stopStage(run, { reason, signal, cause }, this.stopContext, look.report);
    const stopped = fresh.filter((run) => run.stopDetail !== null);
    completeStops(look, stopped, this.stageGroups(), this.marker);
    this.sweepEscaped(signal);
    this.after(this.settings.killAfterMs, () => this.sweepEscaped('SIGKILL'));
  }

  private sweepEscaped(signal: NodeJS.Signals): void {
    signalEscaped(this.leftovers, this.runs, this.marker, signal, this.groups);
  }

  private after(ms: number, action: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      action();
    }, ms);
    this.timers.add(timer);
  }

  private checkIdle(idleMs: number): void {
    if (this.idle.idleNow(this.runs, idleMs, this.warnings)) {
      this.stopAll('timeout', { kind: 'idle-timeout', limitMs: idleMs });
    }
  }
}
