import { assemblePlan, type PlanRequest } from '../inputs/assemble-plan.js';
import { blankStage } from '../inputs/command-stages.js';
import { checkStageCount, checkTextSize } from '../inputs/limits.js';
import { DEFAULT_SETTINGS } from '../settings/defaults.js';
import type { Plan, Settings, StageSpec } from '../types.js';
import { fallbackStages, parseText, writtenStages } from './plan-shell.js';

interface ShellPlanOptions {
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
    const stages = fallbackStages(text, policyOf(request), blankStage).map(withEnv);
    return { ...assemblePlan({ source: 'inline', stages, ...request }), fallback: parsed.fallback };
  }
  const script = parsed.script!;
  const stages = writtenStages(script, blankStage);
  checkStageCount(stages.length, '-c');
  const written = assemblePlan({ source: 'inline', stages, ...request });
  const fallback = options.fallback ? { fallback: bashStage(text, request, withEnv) } : {};
  const shell = {
    script,
    source: parsed.source,
    arg0: 'bash',
    args: [],
    errexit: false,
    okCodes: written.stages.map((stage) => stage.okCodes),
    ...fallback,
  };
  return {
    ...written,
    stages: [],
    shell,
    ...(request.cwd === null ? {} : { cwd: request.cwd }),
    ...(options.env ? { env: { ...definedOnly(options.base), ...options.env } } : {}),
  };
}

function policyOf(request: Omit<PlanRequest, 'source' | 'stages'>): Settings['policy'] {
  return (Object.assign({ ...DEFAULT_SETTINGS }, ...request.layers) as Settings).policy;
}

// The bash stage --fallback bash runs when a step is refused once the text runs (before any step
// started a process): the one the text would have become had the refusal come before the run. Only
// --ok-codes that can name it (1, bash) apply: the others name commands as written.
function bashStage(
  text: string,
  request: Omit<PlanRequest, 'source' | 'stages'>,
  withEnv: (stage: StageSpec) => StageSpec,
): StageSpec {
  const stages = fallbackStages(text, policyOf(request), blankStage).map(withEnv);
  const okCodes = request.okCodes.filter((entry) => entry.stage === '1' || entry.stage === 'bash');
  return assemblePlan({ source: 'inline', stages, ...request, okCodes }).stages[0]!;
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}
