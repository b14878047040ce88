import fs from 'node:fs';
import { secretValuesFromEnv } from '../capture/mask.js';
import { maskReport } from '../engine/report/mask-report.js';
import { type RunHandle, type RunIO, startRun } from '../engine/run-pipeline.js';
import { RunSupport } from '../engine/run-support.js';
import { formatDuration } from '../format-units.js';
import type { ListItem } from '../model/shell-syntax.js';
import { EXIT_TIMEOUT } from '../policy/verdict.js';
import type { Report, Settings, ShellPlan, Verdict } from '../types.js';
import { bashStepStatus } from './bash-status.js';
import { mergeReports, type StepOutcome } from './merge-reports.js';
import { type PlannedStep, planStep } from './plan-step.js';
import { childEnvironment, type ShellState } from './shell-state.js';
import { type StepResult, stateChange } from './state-step.js';

export interface ShellRunHandle extends RunHandle {
  readonly result: Promise<{ report: Report; state: ShellState }>;
}

// bash's short circuit: `&&` runs after success, `||` after failure, `;` always.
function shouldRun(connector: ListItem['connector'], status: number): boolean {
  if (connector === '&&') return status === 0;
  if (connector === '||') return status !== 0;
  return true;
}

// A step stopped by a time limit with less than this left of the run's own was stopped by the run's:
// the engine's timer may fire a little before this clock says so (it counts from the event loop's
// last tick), while an idle timeout or a prompt wait leaves the run its time.
const LIMIT_MARGIN_MS = 50;

const BUILTIN_LABEL = { bash: 'bash builtin', cd: 'bash builtin (cd)', export: 'shell state' } as const;

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
  private readonly t0 = performance.now();
  private readonly outcomes: StepOutcome[] = [];
  private stoppedBefore: Verdict | null = null;
  // Set when a step's own verdict was the run's time limit: the steps after it are skipped.
  private endedByTimeLimit = false;
  private readonly shell: ShellPlan;
  private readonly settings: Settings;
  private readonly io: RunIO;
  private readonly given: RunSupport | null;
  private own: RunSupport | null = null;

  constructor(shell: ShellPlan, settings: Settings, io: RunIO, support: RunSupport | null) {
    this.shell = shell;
    this.settings = settings;
    this.io = io;
    this.given = support;
  }

  // The watchdog the steps share: the caller's, or this text's own from its first engine run on.
  private support(): RunSupport {
    if (this.given) return this.given;
    this.own ??= new RunSupport();
    return this.own;
  }

  closeSupport(): void {
    this.own?.close();
    this.own = null;
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
    if (this.endedByTimeLimit || this.stoppedBefore) return skipped('timeout');
    if (this.cancelled || !shouldRun(item.connector, state.status)) return skipped(null);
    if (this.outOfTime()) return skipped('timeout');
    const planned = await planStep(item.pipeline, state, execsDirectly(item, this.shell.script.items));
    if (this.outOfTime()) return skipped('timeout');
    if (planned.assigns) return stateChange(item, planned, state, this.settings);
    return this.runStages(item, planned, state, { first, left: this.timeLeft() });
  }

  // Milliseconds left of the run's time limit; null without one.
  private timeLeft(): number | null {
    const { timeoutMs } = this.settings;
    return timeoutMs === null ? null : timeoutMs - (performance.now() - this.t0);
  }

  // Whether the time limit ran out before the next step could start: then the run ends there, as a
  // timeout, whatever the steps before it did (a step may end just after the limit, before the
  // engine's own timer fires).
  private outOfTime(): boolean {
    const left = this.timeLeft();
    if (left === null || left > 0) return false;
    const limit = formatDuration(this.settings.timeoutMs!);
    this.stoppedBefore = {
      ok: false,
      exitCode: EXIT_TIMEOUT,
      blamedStage: null,
      reason: `the pipeline timeout (${limit}) ran out before step ${this.outcomes.length + 1} could start`,
    };
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
      // Rounded up: the engine's timer never fires before the run's own limit is up.
      settings: { ...settings, timeoutMs: at.left === null ? null : Math.max(1, Math.ceil(at.left)) },
      env: childEnvironment(state),
      startEach: true,
    };
    const more = item !== this.shell.script.items.at(-1);
    this.current = startRun(plan, this.io, { support: this.support(), more });
    if (this.cancelled) this.current.cancel(this.cancelled);
    const report = await this.current.report;
    this.current = null;
    const next = { ...afterCd(planned, state, report), status: bashStepStatus(report, settings.policy) };
    // The run's time limit stopped this step: the rest is skipped, and its 124 stands. A step that
    // ended otherwise after the limit leaves the stop to the check before the next step.
    const left = this.timeLeft();
    if (left !== null && left <= LIMIT_MARGIN_MS && stoppedByTimeLimit(report)) this.endedByTimeLimit = true;
    const builtins = planned.kinds.map((kind) => (kind ? BUILTIN_LABEL[kind] : null));
    return {
      state: next,
      outcome: {
        item,
        report,
        cwd: state.cwd,
        builtins,
        expansions: planned.expansions,
        skippedBecause: null,
      },
    };
  }
}

// Whether a step's verdict is a time limit: a stage it stopped, or the limit firing after the stages
// had exited.
function stoppedByTimeLimit(report: Report): boolean {
  const { exitCode, blamedStage } = report.verdict;
  return (
    exitCode === EXIT_TIMEOUT &&
    (blamedStage === null || report.stages[blamedStage - 1]?.status === 'timeout')
  );
}

// After a `cd` step that succeeded, bash's $PWD and $OLDPWD, which it left in the step's state file.
function afterCd(planned: PlannedStep, state: ShellState, report: Report): ShellState {
  if (!planned.stateFile) return state;
  let text = '';
  try {
    text = fs.readFileSync(planned.stateFile, 'utf8');
    fs.rmSync(planned.stateFile, { force: true });
  } catch {
    return state;
  }
  const [pwd, oldpwd] = text.split('\0');
  if (report.exitCode !== 0 || !pwd) return state;
  const env: Record<string, string> = { ...state.env, PWD: pwd };
  if (oldpwd) env.OLDPWD = oldpwd;
  return { ...state, cwd: pwd, env };
}

// bash -c runs the text's last pipeline (after `;` or a newline) in a way whose own messages for an
// external command carry no "line N:" (observed with bash 5.2; docs/inline-grammar.md).
function execsDirectly(item: ListItem, items: readonly ListItem[]): boolean {
  return item === items.at(-1) && (item.connector === null || item.connector === ';');
}
