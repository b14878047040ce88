import { secretValuesFromEnv } from '../capture/mask.js';
import { closeQuietly } from '../engine/kernel-pipes.js';
import { maskReport } from '../engine/report/mask-report.js';
import { type RunHandle, type RunIO, type SharedSupport, startRun } from '../engine/run-pipeline.js';
import { RunSupport } from '../engine/run-support.js';
import { isRequestError } from '../errors.js';
import type { ListItem } from '../model/shell-syntax.js';
import { monotonicMs } from '../monotonic-ms.js';
import type { FallbackInfo, Plan, Report, Settings, ShellPlan } from '../types.js';
import { afterCd, asRan, engineLimit, execsDirectly, shouldRun, textEndedBy } from './list-rules.js';
import { mergeReports, type StepOutcome } from './merge-reports.js';
import { type PlannedStep, planStep } from './plan-step.js';
import { isRefusal } from './refuse.js';
import { type RunStop, refusalStop, timeLimitStop } from './run-stops.js';
import { childEnvironment, type ShellState } from './shell-state.js';
import { type StepResult, stateChange } from './state-step.js';

export interface ShellRunHandle extends RunHandle {
  readonly result: Promise<{ report: Report; state: ShellState }>;
}

// A step stopped by a time limit with less than this left of the run's own was stopped by the run's:
// the engine's timer may fire a little before this clock says so (it counts from the event loop's
// last tick), while an idle timeout or a prompt wait leaves the run its time.
const LIMIT_MARGIN_MS = 50;

const BUILTIN_LABEL = {
  bash: 'bash builtin',
  cd: 'bash builtin (cd)',
  export: 'shell state',
  exit: 'bash builtin (exit)',
} as const;

// Runs a parsed -c list step by step: each pipeline one engine run, in order, sharing the overall
// time limit and cancellation, and one watchdog (`support`: the caller's, or one opened at the first
// engine run and closed at the end); the state (directory, variables, $?) flows from step to step.
export function startShellRun(
  shell: ShellPlan,
  initial: ShellState,
  settings: Settings,
  io: RunIO = {},
  support: RunSupport | null = null,
): ShellRunHandle {
  const run = new ShellRun(shell, settings, io, support);
  const result = run.runAll(initial).finally(() => run.closeSupport());
  return {
    result,
    report: result.then((r) => r.report),
    cancel: (signal) => run.cancel(signal),
    // The step that runs now: who waits for whom, and what its stages are doing.
    inspect: () => run.current?.inspect() ?? null,
    progress: () => run.current?.progress() ?? [],
  };
}

// One run of a -c list: the steps' outcomes so far, and the engine run of the step that runs now.
class ShellRun {
  // The engine run of the step that runs now, if any.
  current: RunHandle | null = null;
  private cancelled: NodeJS.Signals | null = null;
  private readonly startedAt = new Date();
  private readonly t0 = monotonicMs();
  private readonly outcomes: StepOutcome[] = [];
  // Set when the run ended before a step: the time limit ran out, or the step was refused.
  private stoppedBefore: RunStop | null = null;
  // Set when a step was stopped by the run's time limit or by another of safe-run's own limits (idle,
  // prompt wait, output cap): the steps after it are skipped, and the stopped step's verdict stands.
  private endedBy: 'timeout' | 'stopped' | null = null;
  // Set once a step started processes: a step refused after that ends the run with a report.
  private startedProcesses = false;
  // Set when, under --fallback bash, a step was refused before any step started a process.
  private fallbackFor: FallbackInfo | null = null;
  // Set once an `exit` step ended the text: the steps after it are skipped, as in bash.
  private exited = false;
  // --stdin FILE, opened by the first step that runs and read by every step after it.
  private readonly stdin: { fd: number | null } = { fd: null };
  private own: RunSupport | null = null;

  constructor(
    private readonly shell: ShellPlan,
    private readonly settings: Settings,
    private readonly io: RunIO,
    // The watchdog the caller shares with the text, if any.
    private readonly given: RunSupport | null,
  ) {}

  // The watchdog the steps share: the caller's, or this text's own from its first engine run on.
  private support(): RunSupport {
    if (this.given) return this.given;
    this.own ??= new RunSupport();
    return this.own;
  }

  // The end of the text: its watchdog (when its own) and its --stdin descriptor are released.
  closeSupport(): void {
    this.own?.close();
    this.own = null;
    closeQuietly(this.stdin.fd);
    this.stdin.fd = null;
  }

  cancel(signal: NodeJS.Signals): void {
    this.cancelled ??= signal;
    this.current?.cancel(signal);
  }

  async runAll(initial: ShellState): Promise<{ report: Report; state: ShellState }> {
    let state = initial;
    // The index in the whole list of each step's first command, for its --ok-codes.
    let first = 0;
    for (const item of this.shell.script.items) {
      const done = await this.step(item, state, first);
      if (this.fallbackFor) return this.runFallback(initial);
      this.outcomes.push(done.outcome);
      state = done.state;
      first += item.pipeline.commands.length;
    }
    const secrets = secretValuesFromEnv(childEnvironment(state), this.settings.mask);
    const merged = mergeReports(this.outcomes, {
      settings: this.settings,
      startedAt: this.startedAt,
      t0: this.t0,
      stoppedBefore: this.stoppedBefore,
      streamedStdout: Boolean(this.io.stdout),
    });
    return { report: maskReport(merged, secrets), state };
  }

  // One item of the list: skipped (the time limit, a stop, bash's short circuit), a state change, or
  // an engine run. A step starts only while the run's time limit has time left: checked before its
  // words are expanded, and again after (the expansion takes time too).
  private async step(item: ListItem, state: ShellState, first: number): Promise<StepResult> {
    const skipped = (because: StepOutcome['skippedBecause']): StepResult => ({
      state,
      outcome: { item, report: null, cwd: state.cwd, builtins: [], expansions: [], skippedBecause: because },
    });
    if (this.stoppedBefore) return skipped(this.stoppedBefore.after);
    if (this.endedBy) return skipped(this.endedBy);
    if (this.exited) return skipped('exit');
    if (this.cancelled || !shouldRun(item.connector, state.status)) return skipped(null);
    if (this.outOfTime()) return skipped('timeout');
    let planned: PlannedStep;
    try {
      planned = await planStep(item.pipeline, state, execsDirectly(item, this.shell.script.items));
    } catch (error) {
      this.refuse(error);
      return skipped('refused');
    }
    if (this.outOfTime()) return skipped('timeout');
    if (planned.assigns) return stateChange(item, planned, state, this.settings);
    return this.runStages(item, planned, state, { first, left: this.timeLeft() });
  }

  // A step refused when it was reached (what it runs comes from an expansion, its directory is gone).
  // Before any step started a process, nothing has happened that bash would not do again: the
  // refusal stands as if it came before the run (one line, exit 125), or under --fallback bash the
  // whole text runs under bash. After, the run ends at this step, with a report of what ran.
  private refuse(error: unknown): void {
    if (!isRequestError(error)) throw error;
    if (!this.startedProcesses) {
      if (!this.shell.fallback || !isRefusal(error)) throw error;
      this.fallbackFor = { construct: error.construct, column: error.column ?? 1 };
      return;
    }
    this.stoppedBefore = refusalStop(this.outcomes.length + 1, error.message, this.settings.policy);
  }

  // --fallback bash for a step refused before any process started: the whole text, from the state it
  // started in, as the one bash stage it would have been had the refusal come before the run.
  private async runFallback(initial: ShellState): Promise<{ report: Report; state: ShellState }> {
    const plan: Plan = {
      source: 'inline',
      stages: [this.shell.fallback!],
      settings: { ...this.settings, timeoutMs: engineLimit(this.timeLeft()) },
      env: childEnvironment(initial),
      cwd: initial.cwd,
      fallback: this.fallbackFor!,
    };
    const report = await this.engineRun(plan, { support: this.support(), more: false });
    return { report, state: initial };
  }

  // One engine run of the text, cancelled with it while it runs.
  private async engineRun(plan: Plan, shared: SharedSupport): Promise<Report> {
    this.current = startRun(plan, this.io, shared);
    if (this.cancelled) this.current.cancel(this.cancelled);
    try {
      return await this.current.report;
    } finally {
      this.current = null;
    }
  }

  // Milliseconds left of the run's time limit; null without one.
  private timeLeft(): number | null {
    const { timeoutMs } = this.settings;
    return timeoutMs === null ? null : timeoutMs - (monotonicMs() - this.t0);
  }

  // Whether the time limit ran out before the next step could start: then the run ends there, as a
  // timeout, whatever the steps before it did (a step may end just after the limit, before the
  // engine's own timer fires).
  private outOfTime(): boolean {
    const left = this.timeLeft();
    if (left === null || left > 0) return false;
    this.stoppedBefore = timeLimitStop(this.settings.timeoutMs!, this.outcomes.length + 1);
    return true;
  }

  private async runStages(
    item: ListItem,
    planned: PlannedStep,
    state: ShellState,
    at: { first: number; left: number | null },
  ): Promise<StepResult> {
    const { settings } = this;
    planned.stages.forEach((stage, c) => {
      stage.okCodes = this.shell.okCodes[at.first + c] ?? stage.okCodes;
    });
    const plan = {
      source: 'inline' as const,
      stages: planned.stages,
      settings: { ...settings, timeoutMs: engineLimit(at.left) },
      env: childEnvironment(state),
      startEach: true,
    };
    const more = item !== this.shell.script.items.at(-1);
    this.startedProcesses = true;
    const report = await this.engineRun(plan, { support: this.support(), more, stdin: this.stdin });
    const ran = asRan(item, planned, report, settings.policy);
    const next = { ...afterCd(planned, state, report), status: ran.status };
    // `exit` ends bash -c whatever its arguments (a bad one only changes the status to 1 or 2).
    this.exited = ran.exited;
    // A limit of safe-run's stopped this step: the rest is skipped, and its 124 stands. A step that
    // ended by itself after the time limit leaves the stop to the check before the next step.
    this.endedBy = textEndedBy(report, this.timeLeft(), LIMIT_MARGIN_MS);
    const builtins = planned.kinds.map((kind) => (kind ? BUILTIN_LABEL[kind] : null));
    return {
      state: next,
      outcome: {
        item: ran.item,
        report,
        cwd: state.cwd,
        builtins,
        expansions: planned.expansions,
        skippedBecause: null,
      },
    };
  }
}
