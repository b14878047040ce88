import type { ListItem } from '../model/shell-syntax.js';
import type { Report, Settings, StageResult, StreamReport } from '../types.js';
import { negatedStatus } from './list-rules.js';
import type { StepOutcome } from './merge-reports.js';
import type { PlannedStep } from './plan-step.js';
import type { ShellState } from './shell-state.js';

const NOTHING: StreamReport = {
  bytes: 0,
  truncated: false,
  omittedBytes: 0,
  text: '',
  binary: false,
  logFile: null,
};

// NAME=value and `export` as steps of their own: safe-run changes the state itself, as bash changes
// its own variables, with no process. Returns the new state.
export function applyAssignments(step: PlannedStep, state: ShellState): ShellState {
  const env = { ...state.env };
  const vars = { ...state.vars };
  const unset = new Set(state.exportedUnset);
  for (const { name, value, exported } of step.assigns ?? []) {
    if (exported) {
      const current = value ?? vars[name] ?? env[name];
      delete vars[name];
      if (current === undefined) unset.add(name);
      else {
        env[name] = current;
        unset.delete(name);
      }
    } else if (value !== null) {
      vars[name] = value;
    }
  }
  const next: ShellState = { ...state, env, vars, status: 0 };
  if (unset.size > 0) next.exportedUnset = [...unset];
  else delete next.exportedUnset;
  return next;
}

// The report of a step safe-run did itself: one stage, ok, exit 0, no process.
export function stateStepReport(argv: string[], name: string, settings: Settings, startedAt: Date): Report {
  const stage: StageResult = {
    index: 1,
    name,
    argv,
    resolvedPath: null,
    status: 'ok',
    succeeded: true,
    exitCode: 0,
    signal: null,
    pid: null,
    startedAt: startedAt.toISOString(),
    durationMs: 0,
    optional: false,
    stdout: NOTHING,
    stderr: NOTHING,
    stop: null,
    error: null,
    hint: null,
    meaning: null,
  };
  return {
    schemaVersion: 1,
    ok: true,
    exitCode: 0,
    policy: settings.policy,
    verdict: { ok: true, exitCode: 0, blamedStage: null, reason: `policy ${settings.policy}: satisfied` },
    startedAt: startedAt.toISOString(),
    durationMs: 0,
    stages: [stage],
    settings,
    leftovers: [],
    facts: [],
    warnings: [],
    next: null,
    output: null,
    checks: [],
  };
}

// What one step left: the state after it, and its outcome for the merged report.
export interface StepResult {
  state: ShellState;
  outcome: StepOutcome;
}

// NAME=value or export: safe-run changes the state itself, and the report shows it as a step.
export function stateChange(
  item: ListItem,
  planned: PlannedStep,
  state: ShellState,
  settings: Settings,
): StepResult {
  // `! A=1` and `! export A` change the state, and their $? is 1, as in bash.
  const next = { ...applyAssignments(planned, state), status: negatedStatus(item, 0) };
  const assigns = planned.assigns ?? [];
  const argv =
    item.pipeline.commands[0]!.words.length > 0
      ? ['export', ...assigns.map((a) => a.name)]
      : assigns.map((a) => `${a.name}=`);
  const report = stateStepReport(argv, argv[0] === 'export' ? 'export' : 'assignment', settings, new Date());
  const { expansions } = planned;
  const outcome = {
    item,
    report,
    cwd: state.cwd,
    builtins: ['shell state'],
    expansions,
    skippedBecause: null,
  };
  return { state: next, outcome };
}
