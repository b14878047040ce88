import fs from 'node:fs';
import type { ListItem } from '../model/shell-syntax.js';
import { EXIT_TIMEOUT } from '../policy/verdict.js';
import type { Policy, Report } from '../types.js';
import { bashStepStatus } from './bash-status.js';
import type { PlannedStep } from './plan-step.js';
import type { ShellState } from './shell-state.js';

// bash's rules for the steps of a list, as the -c runner (run-shell.ts) applies them.

// bash's short circuit: `&&` runs after success, `||` after failure, `;` always.
export function shouldRun(connector: ListItem['connector'], status: number): boolean {
  if (connector === '&&') return status === 0;
  if (connector === '||') return status !== 0;
  return true;
}

// A step's time limit from what is left of the text's, rounded up: the engine's timer never fires
// before the text's own limit is up.
export function engineLimit(left: number | null): number | null {
  return left === null ? null : Math.max(1, Math.ceil(left));
}

// Whether a step's verdict is a time limit: a stage it stopped, or the limit firing after the stages
// had exited.
export function stoppedByTimeLimit(report: Report): boolean {
  const { exitCode, blamedStage } = report.verdict;
  return (
    exitCode === EXIT_TIMEOUT &&
    (blamedStage === null || report.stages[blamedStage - 1]?.status === 'timeout')
  );
}

// Whether a step's stop ends the text: 'timeout' when the run's time limit stopped it (`left`, the ms
// left of the limit, is within `margin`), 'stopped' when another of safe-run's own limits did (idle,
// prompt wait, output cap with --on-limit kill: stops bash would not make, so the text cannot go on
// as bash would), else null.
export function textEndedBy(
  report: Report,
  left: number | null,
  margin: number,
): 'timeout' | 'stopped' | null {
  if (left !== null && left <= margin && stoppedByTimeLimit(report)) return 'timeout';
  const stopped = report.stages.some((stage) => stage.status === 'timeout' || stage.status === 'limit');
  return stopped ? 'stopped' : null;
}

// After a `cd` step that succeeded, bash's $PWD and $OLDPWD, which it left in the step's state file.
export function afterCd(planned: PlannedStep, state: ShellState, report: Report): ShellState {
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
export function execsDirectly(item: ListItem, items: readonly ListItem[]): boolean {
  return item === items.at(-1) && (item.connector === null || item.connector === ';');
}

// A step as it ran: whether it was an `exit` that ended the text, the item as the report shows it,
// and bash's $? after it. `! exit N` ends bash with N: the shell is gone before its `!` could invert
// the status. A redirection of exit's own that failed kept it from running, as it keeps any command:
// bash then goes on, with status 1 (which `!` inverts).
export function asRan(item: ListItem, planned: PlannedStep, report: Report, policy: Policy) {
  const exited = planned.kinds[0] === 'exit' && report.stages[0]?.status !== 'not-started';
  const ran =
    exited && item.pipeline.negated ? { ...item, pipeline: { ...item.pipeline, negated: false } } : item;
  return { exited, item: ran, status: negatedStatus(ran, bashStepStatus(report, policy)) };
}

// A step's $? after `!`: 1 for a success, 0 for a failure; as it is otherwise.
export function negatedStatus(item: ListItem, status: number): number {
  if (!item.pipeline.negated) return status;
  return status === 0 ? 1 : 0;
}
