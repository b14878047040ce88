import type { SpecProblem } from './format-problems.js';
import { quote } from './value-schemas.js';

// Declared stage names must be unique. Read from the document as written, so that a duplicate is
// reported alongside every other problem rather than after they are fixed.
export function findDuplicateNames(document: unknown): SpecProblem[] {
  if (typeof document !== 'object' || document === null || !('stages' in document)) return [];
  const stages = document.stages;
  if (!Array.isArray(stages)) return [];
  const firstUse = new Map<string, number>();
  const problems: SpecProblem[] = [];
  stages.forEach((stage: unknown, index) => {
    if (typeof stage !== 'object' || stage === null || !('name' in stage)) return;
    const name = stage.name;
    if (typeof name !== 'string') return;
    const first = firstUse.get(name);
    if (first === undefined) firstUse.set(name, index);
    else {
      problems.push({
        path: ['stages', index, 'name'],
        message: `duplicate name ${quote(name)}; stages[${first}] already has it`,
      });
    }
  });
  return problems;
}

// A stage env key __proto__ is valid for a shell but would vanish from a JavaScript object (the
// schema's record drops it): read from the document as written, and refused.
export function findProtoKeys(document: unknown): SpecProblem[] {
  if (typeof document !== 'object' || document === null || !('stages' in document)) return [];
  const stages = document.stages;
  if (!Array.isArray(stages)) return [];
  return stages.flatMap((stage: unknown, index) => {
    if (typeof stage !== 'object' || stage === null || !('env' in stage)) return [];
    const env = stage.env;
    if (typeof env !== 'object' || env === null || !Object.hasOwn(env, '__proto__')) return [];
    return [
      {
        path: ['stages', index, 'env', '__proto__'],
        message: '__proto__ cannot be passed to a stage; use another name',
      },
    ];
  });
}
