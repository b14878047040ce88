import { blankStage } from './cli/build-plan.js';
import { DEFAULT_SETTINGS } from './defaults.js';
import { parseInline } from './inputs/inline-grammar.js';
import { assignStageNames } from './inputs/stage-names.js';
import type { Plan, Settings, StageSpec } from './types.js';

export interface PlanOptions extends Partial<Settings> {
  // Accepted exit codes by 1-based stage index or stage name.
  okCodes?: Record<string, number[]>;
}

function finish(stages: StageSpec[], source: Plan['source'], options: PlanOptions): Plan {
  const { okCodes = {}, ...settings } = options;
  for (const [key, codes] of Object.entries(okCodes)) {
    const stage = /^\d+$/.test(key) ? stages[Number(key) - 1] : stages.find((s) => s.name === key);
    if (stage) stage.okCodes = codes;
  }
  return { source, stages, settings: { ...DEFAULT_SETTINGS, ...settings } };
}

// A one-stage plan from an argv, for library callers.
export function planFromArgv(argv: string[], options: PlanOptions = {}): Plan {
  const [name] = assignStageNames([argv[0] ?? '']);
  return finish([{ ...blankStage(), name: name!, argv }], 'argv', options);
}

// A plan from an inline pipeline string ("a | b | c"), parsed without a shell; throws RequestError.
export function planFromInline(text: string, options: PlanOptions = {}): Plan {
  const parsed = parseInline(text);
  const names = assignStageNames(parsed.map((stage) => stage.argv[0]!));
  const stages = parsed.map((stage, i) => ({
    ...blankStage(),
    name: names[i]!,
    argv: stage.argv,
    env: stage.env,
  }));
  return finish(stages, 'inline', options);
}
