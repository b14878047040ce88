import { type RunHandle, type RunIO, startRun as startPipelineRun } from './engine/run-pipeline.js';
import type { RunSupport } from './engine/run-support.js';
import { initialState } from './shell/shell-state.js';
import { startShellPlan } from './shell/start-text.js';
import type { Plan, Report } from './types.js';

// Runs any plan: a pipeline (argv, spec file, --fallback bash) in one engine run, or -c text step by
// step (src/shell/), each step an engine run. `env` is what a -c text starts from when the plan
// carries none (safe-run's own environment).
export function startRun(plan: Plan, io: RunIO = {}, env: NodeJS.ProcessEnv = process.env): RunHandle {
  return startSupportedRun(plan, io, env, null);
}

// The same, with the watchdog and FIFOs the CLI started before it read its flags (not exported from
// the library: a caller of run() gets a watchdog per run).
export function startSupportedRun(
  plan: Plan,
  io: RunIO,
  env: NodeJS.ProcessEnv,
  support: RunSupport | null,
): RunHandle {
  if (!plan.shell) return startPipelineRun(plan, io, support && { support, more: false });
  const state = initialState(plan.cwd ?? process.cwd(), plan.env ?? env);
  return startShellPlan(plan.shell, state, plan.settings, io, support);
}

export function run(plan: Plan, io: RunIO = {}): Promise<Report> {
  return startRun(plan, io).report;
}
