import fs from 'node:fs';
import { secretValuesFromEnv } from '../capture/mask.js';
import { maskReport } from '../engine/report/mask-report.js';
import { type RunHandle, type RunIO, startRun } from '../engine/run-pipeline.js';
import type { ListItem } from '../model/shell-syntax.js';
import type { Report, Settings, ShellPlan, Verdict } from '../types.js';
import { bashStepStatus } from './bash-status.js';
import { mergeReports, type StepOutcome } from './merge-reports.js';
import { type PlannedStep, planStep } from './plan-step.js';
import { childEnvironment, type ShellState } from './shell-state.js';
import { applyAssignments, stateStepReport } from './state-step.js';

export interface ShellRunHandle extends RunHandle {
  readonly result: Promise<{ report: Report; state: ShellState }>;
}

// bash's short circuit: `&&` runs after success, `||` after failure, `;` always.
function shouldRun(connector: ListItem['connector'], status: number): boolean {
  if (connector === '&&') return status === 0;
  if (connector === '||') return status !== 0;
  return true;
}

const BUILTIN_LABEL = { bash: 'bash builtin', cd: 'bash builtin (cd)', export: 'shell state' } as const;

// Runs a parsed -c list step by step: each pipeline one engine run, in order, sharing the overall
// time limit and cancellation; the state (directory, variables, $?) flows from step to step.
export function startShellRun(
  shell: ShellPlan,
  initial: ShellState,
  settings: Settings,
  io: RunIO = {},
): ShellRunHandle {
  const startedAt = new Date();
  const t0 = performance.now();
  let cancelled: NodeJS.Signals | null = null;
  let current: RunHandle | null = null;
  const result = (async () => {
    let state = initial;
    const outcomes: StepOutcome[] = [];
    let stoppedBefore: Verdict | null = null;
    let halted = false;
    let written = 0;
    for (const item of shell.script.items) {
      const first = written;
      written += item.pipeline.commands.length;
      const skip = (): void => {
        outcomes.push({ item, report: null, cwd: state.cwd, builtins: [], expansions: [] });
      };
      if (halted || stoppedBefore || cancelled || !shouldRun(item.connector, state.status)) {
        skip();
        continue;
      }
      const left = settings.timeoutMs === null ? null : settings.timeoutMs - (performance.now() - t0);
      if (left !== null && left <= 0) {
        stoppedBefore = {
          ok: false,
          exitCode: 124,
          blamedStage: null,
          reason: `the pipeline timeout fired before step ${outcomes.length + 1} could start`,
        };
        skip();
        continue;
      }
      const cwd = state.cwd;
      const planned = await planStep(item.pipeline, state, execsDirectly(item, shell.script.items));
      let report: Report;
      if (planned.assigns) {
        state = applyAssignments(planned, state);
        const argv =
          item.pipeline.commands[0]!.words.length > 0
            ? ['export', ...planned.assigns.map((a) => a.name)]
            : planned.assigns.map((a) => `${a.name}=`);
        report = stateStepReport(argv, argv[0] === 'export' ? 'export' : 'assignment', settings, new Date());
        outcomes.push({ item, report, cwd, builtins: ['shell state'], expansions: planned.expansions });
        continue;
      }
      planned.stages.forEach((stage, c) => {
        stage.okCodes = shell.okCodes[first + c] ?? stage.okCodes;
      });
      const plan = {
        source: 'inline' as const,
        stages: planned.stages,
        settings: { ...settings, timeoutMs: left === null ? null : Math.max(1, Math.round(left)) },
        env: childEnvironment(state),
        startEach: true,
      };
      current = startRun(plan, io);
      if (cancelled) current.cancel(cancelled);
      report = await current.report;
      current = null;
      state = { ...afterCd(planned, state, report), status: bashStepStatus(report, settings.policy) };
      const builtins = planned.kinds.map((kind) => (kind ? BUILTIN_LABEL[kind] : null));
      outcomes.push({ item, report, cwd, builtins, expansions: planned.expansions });
      // The time limit ran out during this step: the rest is skipped, and its 124 stands.
      if (settings.timeoutMs !== null && performance.now() - t0 >= settings.timeoutMs) halted = true;
    }
    const secrets = secretValuesFromEnv(childEnvironment(state), settings.mask);
    const merged = mergeReports(outcomes, {
      settings,
      startedAt,
      t0,
      stoppedBefore,
      streamedStdout: Boolean(io.stdout),
    });
    return { report: maskReport(merged, secrets), state };
  })();
  return {
    result,
    report: result.then((r) => r.report),
    cancel(signal) {
      cancelled ??= signal;
      current?.cancel(signal);
    },
    // The step that runs now: who waits for whom, and what its stages are doing.
    inspect: () => current?.inspect() ?? null,
    progress: () => current?.progress() ?? [],
  };
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
