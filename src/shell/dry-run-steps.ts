import { spawnSync } from 'node:child_process';
import type { Plan, StageSpec } from '../types.js';
import { bashPath } from './bash-path.js';
import { planStep } from './plan-step.js';
import { childEnvironment, helperEnvironment, initialState, type ShellState } from './shell-state.js';
import { applyAssignments } from './state-step.js';

// One step as --dry-run shows it: its stages in the flat plan, what its words expanded to, and why
// that may differ in a real run.
export interface DryRunStep {
  index: number;
  text: string;
  connector: '&&' | '||' | ';' | null;
  stages: number[];
  expansions: { word: string; fields: string[] }[];
  // Set when the step comes after one that may change files or fail: a real run may expand differently.
  caveat: string | null;
}

// Expands every step of a -c list in order, without running anything: NAME=value and export change
// the state as they would; `cd` is asked of bash (it has no effect but on the directory). Programs
// are not run, so a step after one that runs a program may see other files in a real run.
export async function planShellDryRun(
  plan: Plan,
  env: Record<string, string | undefined>,
): Promise<{ plan: Plan; steps: DryRunStep[] }> {
  let state: ShellState = initialState(plan.cwd ?? process.cwd(), env);
  const stages: StageSpec[] = [];
  const steps: DryRunStep[] = [];
  let caveat: string | null = null;
  for (const [k, item] of (plan.shell?.script.items ?? []).entries()) {
    const planned = await planStep(item.pipeline, state);
    const first = stages.length;
    if (planned.assigns) state = applyAssignments(planned, state);
    else stages.push(...planned.stages);
    steps.push({
      index: k + 1,
      text: item.pipeline.text,
      connector: item.connector,
      stages: planned.stages.map((_, i) => first + i + 1),
      expansions: planned.expansions,
      caveat,
    });
    if (planned.stateFile) state = dryCd(planned.stages[0]!.argv.slice(1), state);
    else if (!planned.assigns)
      caveat ??= `step ${k + 1} runs programs first: files they change can change what later words expand to`;
  }
  return { plan: { ...plan, stages, env: childEnvironment(state) }, steps };
}

function dryCd(args: string[], state: ShellState): ShellState {
  const result = spawnSync(
    bashPath(),
    [
      '--norc',
      '--noprofile',
      '-c',
      'cd "$@" >/dev/null 2>&1 && printf "%s\\0%s" "$PWD" "$OLDPWD"',
      'bash',
      ...args,
    ],
    {
      cwd: state.cwd,
      env: helperEnvironment(state),
      encoding: 'utf8',
    },
  );
  const [pwd, oldpwd] = (result.stdout ?? '').split('\0');
  if (result.status !== 0 || !pwd) return state;
  return { ...state, cwd: pwd, env: { ...state.env, PWD: pwd, ...(oldpwd ? { OLDPWD: oldpwd } : {}) } };
}
