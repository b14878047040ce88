import path from 'node:path';
import { assemblePlan, type PlanRequest } from './inputs/assemble-plan.js';
import { stagesFromArgv } from './inputs/command-stages.js';
import { planShellText } from './shell/plan-shell-text.js';
import type { Plan, Settings } from './types.js';

export interface PlanOptions extends Partial<Settings> {
  // Accepted exit codes by 1-based stage index or stage name; an unknown stage is a RequestError.
  okCodes?: Record<string, number[]>;
  // The directory every stage runs in; it must exist.
  cwd?: string;
}

// The library's front end to the same plan builder the CLI uses: the same checks, the same errors.
function request(options: PlanOptions): Omit<PlanRequest, 'source' | 'stages'> {
  const { okCodes = {}, cwd, ...settings } = options;
  return {
    layers: [settings],
    okCodes: Object.entries(okCodes).map(([stage, codes]) => ({
      stage,
      codes,
      written: `${stage}=${codes.join(',')}`,
    })),
    cwd: cwd === undefined ? null : path.resolve(cwd),
  };
}

// A one-stage plan from an argv, for library callers; throws RequestError.
export function planFromArgv(argv: string[], options: PlanOptions = {}): Plan {
  return assemblePlan({ source: 'argv', stages: stagesFromArgv(argv), ...request(options) });
}

// A plan from a command line as `safe-run -c` reads it (lists, redirections, expansions: see
// docs/inline-grammar.md), interpreted without handing it to a shell; throws RequestError.
export function planFromInline(text: string, options: PlanOptions = {}): Plan {
  return planShellText(text, request(options), {
    fallback: false,
    env: null,
    base: process.env,
    errexit: false,
    script: null,
  });
}
