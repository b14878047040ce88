import { assemblePlan, type PlanRequest } from '../inputs/assemble-plan.js';
import { blankStage } from '../inputs/command-stages.js';
import { DEFAULT_SETTINGS } from '../settings/defaults.js';
import type { FallbackInfo, Plan, Settings, StageSpec } from '../types.js';

// How bash is to run a text: what `-e` and `--script FILE ARGS` ask of it.
export interface BashRun {
  // Variables every stage starts with (--agent's), under the stages' own; null: none added.
  env: Record<string, string> | null;
  // -e: errexit from the start.
  errexit: boolean;
  // --script FILE ARGS: $0 and $1...; null: as `bash -c TEXT` ($0 is bash, no arguments).
  script: { arg0: string; args: string[] } | null;
}

// --fallback bash: the whole text as one supervised stage, `bash [-e] [-o pipefail] -c TEXT [$0
// ARGS...]`, pipefail unless the policy is `last`. The one place such a plan is made (the CLI, the
// library and the MCP server all come here through planShellText); `info` says what was not
// interpreted.
export function fallbackPlan(
  text: string,
  request: Omit<PlanRequest, 'source' | 'stages'>,
  run: BashRun,
  info: FallbackInfo,
): Plan {
  const stage: StageSpec = { ...blankStage(), name: 'bash', argv: bashArgv(text, policyOf(request), run) };
  const withEnv = run.env ? { ...stage, env: { ...run.env, ...stage.env } } : stage;
  return { ...assemblePlan({ source: 'inline', stages: [withEnv], ...request }), fallback: info };
}

// Where a fallback stage's argv holds the text: right after -c (a script's $0 and arguments follow).
export function fallbackTextAt(argv: readonly string[]): number {
  return argv.indexOf('-c') + 1;
}

function bashArgv(text: string, policy: Settings['policy'], run: BashRun): string[] {
  const flags = [...(run.errexit ? ['-e'] : []), ...(policy === 'last' ? [] : ['-o', 'pipefail'])];
  const script = run.script ? [run.script.arg0, ...run.script.args] : [];
  return ['bash', ...flags, '-c', text, ...script];
}

function policyOf(request: Omit<PlanRequest, 'source' | 'stages'>): Settings['policy'] {
  return (Object.assign({ ...DEFAULT_SETTINGS }, ...request.layers) as Settings).policy;
}
