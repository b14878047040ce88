import path from 'node:path';
import { assemblePlan } from './inputs/assemble-plan.js';
import { stagesFromArgv, stagesFromInline } from './inputs/command-stages.js';
import type { Plan, Settings, StageSpec } from './types.js';

export interface PlanOptions extends Partial<Settings> {
  // Accepted exit codes by 1-based stage index or stage name; an unknown stage is a RequestError.
  okCodes?: Record<string, number[]>;
  // The directory every stage runs in; it must exist.
  cwd?: string;
}

// The library's front end to the same plan builder the CLI uses: the same checks, the same errors.
function finish(stages: StageSpec[], source: Plan['source'], options: PlanOptions): Plan {
  const { okCodes = {}, cwd, ...settings } = options;
  return assemblePlan({
    source,
    stages,
    layers: [settings],
    okCodes: Object.entries(okCodes).map(([stage, codes]) => ({
      stage,
      codes,
      written: `${stage}=${codes.join(',')}`,
    })),
    cwd: cwd === undefined ? null : path.resolve(cwd),
  });
}

// A one-stage plan from an argv, for library callers; throws RequestError.
export function planFromArgv(argv: string[], options: PlanOptions = {}): Plan {
  return finish(stagesFromArgv(argv), 'argv', options);
}

// A plan from an inline pipeline string ("a | b | c"), parsed without a shell; throws RequestError.
export function planFromInline(text: string, options: PlanOptions = {}): Plan {
  return finish(stagesFromInline(text), 'inline', options);
}
