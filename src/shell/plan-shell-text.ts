import { assemblePlan, type PlanRequest } from '../inputs/assemble-plan.js';
import { blankStage } from '../inputs/command-stages.js';
import { checkStageCount, checkTextSize } from '../inputs/limits.js';
import { DEFAULT_SETTINGS } from '../settings/defaults.js';
import type { Plan, Settings, StageSpec } from '../types.js';
import { fallbackStages, parseText, writtenStages } from './plan-shell.js';

export interface ShellPlanOptions {
  // --fallback bash: text with a construct safe-run does not interpret runs under bash as one stage.
  fallback: boolean;
  // Variables every stage starts with (--agent's), under the stages' own; null: none added.
  env: Record<string, string> | null;
  // The environment the text starts from (safe-run's own, for the CLI and the library).
  base: NodeJS.ProcessEnv;
}

// -c text (and the library's planFromInline): the steps safe-run interprets, stages made per step at
// run time, or under --fallback one bash stage. --ok-codes name the commands as written.
export function planShellText(
  text: string,
  request: Omit<PlanRequest, 'source' | 'stages'>,
  options: ShellPlanOptions,
): Plan {
  checkTextSize(text, '-c');
  const parsed = parseText(text, options.fallback ? 'bash' : null);
  const withEnv = (stage: StageSpec): StageSpec =>
    options.env ? { ...stage, env: { ...options.env, ...stage.env } } : stage;
  if (parsed.fallback) {
    const { policy } = Object.assign({ ...DEFAULT_SETTINGS }, ...request.layers) as Settings;
    const stages = fallbackStages(text, policy, blankStage).map(withEnv);
    return { ...assemblePlan({ source: 'inline', stages, ...request }), fallback: parsed.fallback };
  }
  const script = parsed.script!;
  checkStageCount(
    script.items.reduce((sum, item) => sum + item.pipeline.commands.length, 0),
    '-c',
  );
  const written = assemblePlan({ source: 'inline', stages: writtenStages(script, blankStage), ...request });
  return {
    ...written,
    stages: [],
    shell: { script, okCodes: written.stages.map((stage) => stage.okCodes) },
    ...(request.cwd === null ? {} : { cwd: request.cwd }),
    ...(options.env ? { env: { ...definedOnly(options.base), ...options.env } } : {}),
  };
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}
