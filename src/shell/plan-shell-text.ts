import type { PlanRequest } from '../inputs/assemble-plan.js';
import { assemblePlan } from '../inputs/assemble-plan.js';
import { blankStage } from '../inputs/command-stages.js';
import { checkStageCount, checkTextSize } from '../inputs/limits.js';
import type { Plan } from '../types.js';
import { type BashRun, fallbackPlan } from './fallback-plan.js';
import { parseText, writtenStages } from './plan-shell.js';

interface ShellPlanOptions extends BashRun {
  // --fallback bash: text with a construct safe-run does not interpret runs under bash as one stage.
  fallback: boolean;
  // The environment the text starts from (safe-run's own, for the CLI and the library).
  base: NodeJS.ProcessEnv;
}

// -c text and --script (and the library's planFromInline, an MCP call): parsed once, then the steps
// safe-run interprets, stages made per step at run time, or under --fallback one bash stage.
// --ok-codes name the commands as written.
export function planShellText(
  text: string,
  request: Omit<PlanRequest, 'source' | 'stages'>,
  options: ShellPlanOptions,
): Plan {
  checkTextSize(text, '-c');
  const parsed = parseText(text, options.fallback ? 'bash' : null);
  if (parsed.fallback) return fallbackPlan(text, request, options, parsed.fallback);
  const script = parsed.script!;
  const stages = writtenStages(script, blankStage);
  checkStageCount(stages.length, '-c');
  const written = assemblePlan({ source: 'inline', stages, ...request });
  const shell = {
    script,
    source: parsed.source,
    arg0: options.script?.arg0 ?? 'bash',
    args: options.script?.args ?? [],
    errexit: options.errexit,
    file: options.script !== null,
    okCodes: written.stages.map((stage) => stage.okCodes),
  };
  return {
    ...written,
    stages: [],
    shell,
    ...(request.cwd === null ? {} : { cwd: request.cwd }),
    ...(options.env ? { env: { ...definedOnly(options.base), ...options.env } } : {}),
  };
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}
