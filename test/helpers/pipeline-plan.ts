import { assemblePlan } from '../../src/inputs/assemble-plan.js';
import { stagesFromInline } from '../../src/inputs/command-stages.js';
import type { Plan, Settings } from '../../src/types.js';

// A one-pipeline plan ("a | b | c", words only) for tests of the engine itself, whose stages a test
// may still change before the run (the -c front end makes its stages step by step at run time).
export function pipelinePlan(text: string, settings: Partial<Settings> = {}): Plan {
  return assemblePlan({
    source: 'inline',
    stages: stagesFromInline(text),
    layers: [settings],
    okCodes: [],
    cwd: null,
  });
}
