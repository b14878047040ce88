import { planSecrets } from '../capture/mask.js';
import type { Plan, StageError, StageSpec } from '../types.js';
import { preflightMemo } from './preflight.js';
import type { Resolution } from './resolve/resolve-program.js';
import { stageEnvironment } from './stage-env.js';
import { workingDirectory } from './working-directory.js';

// One stage of a plan as it would start: where, with what environment, and the file that would run.
export interface ResolvedStage {
  // 1-based position in the pipeline.
  readonly index: number;
  readonly spec: StageSpec;
  // The directory it runs in, for messages and relative lookups: its own, or safe-run's.
  readonly cwd: string;
  readonly env: Record<string, string>;
  // What resolving its program found; null when its working directory is missing.
  readonly resolution: Resolution | null;
  // Why it cannot be started, or null.
  readonly error: StageError | null;
}

export interface ResolvedPlan {
  readonly plan: Plan;
  readonly stages: readonly ResolvedStage[];
  // True when every stage can be started: a run starts either all of them or none (with startEach,
  // a -c run, each stage that cannot start fails alone, as in bash).
  readonly startable: boolean;
  // Values masked everywhere: secret-looking environment values and those of --mask variables.
  readonly secrets: readonly string[];
  // Said about the plan as a whole (a --mask variable that is not set).
  readonly warnings: readonly string[];
}

// Resolves every stage's program before any starts, the way bash would, so that a broken machine
// never leaves half a pipeline's side effects behind. Starts, opens and writes nothing: a run and a
// dry run both begin here. `marker` is the run's marker value, set in every stage's environment.
export function resolvePlan(plan: Plan, marker = 'dry-run'): ResolvedPlan {
  const preflight = preflightMemo();
  const stages = plan.stages.map((spec, i): ResolvedStage => {
    const env = stageEnvironment(spec, marker, plan.env);
    const cwd = spec.cwd ?? workingDirectory();
    // A -c text that unset PATH finds no program by name: bash searches nothing then.
    const lookup = spec.searchPath === undefined ? env : { ...env, PATH: spec.searchPath };
    return { index: i + 1, spec, cwd, env, ...preflight(spec, lookup, cwd) };
  });
  const merged: Record<string, string> = Object.assign({}, ...stages.map((stage) => stage.env));
  const warnings = plan.settings.mask
    .filter((name) => !merged[name])
    .map((name) => `mask ${name}: the variable is not set, so there is nothing to mask`);
  return {
    plan,
    stages,
    startable: plan.startEach === true || stages.every((stage) => stage.error === null),
    secrets: planSecrets(plan, plan.env ?? process.env),
    warnings,
  };
}
