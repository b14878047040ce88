import type { z } from 'zod';
import { RequestError } from '../errors.js';
import type { RequestErrorCode } from '../types.js';
import { suggestKey } from './did-you-mean.js';
import { PIPELINE_KEYS, STAGE_KEYS } from './schema.js';
import { quote } from './value-schemas.js';

// One problem in a spec file: where (a path into the document) and what, in one sentence.
export interface SpecProblem {
  path: PropertyKey[];
  message: string;
}

// Enough lines to fix a broken file; beyond that the count is more use than the lines.
const MAX_LINES = 50;

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

// stages[1].run, env.PATH, ["odd key"]: the path as the user would point at it in the file.
function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else {
      const key = String(part);
      text += PLAIN_KEY.test(key) ? (text === '' ? key : `.${key}`) : `[${quote(key)}]`;
    }
  }
  return text;
}

// Zod's issues as problems, one per thing to fix: an unknown key per key, and for a value that may
// take several forms, the problems of the form the value was evidently meant to have.
export function problemsFromIssues(
  issues: readonly z.core.$ZodIssue[],
  base: PropertyKey[] = [],
): SpecProblem[] {
  const problems: SpecProblem[] = [];
  for (const issue of issues) {
    const path = [...base, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys)
        problems.push({ path: [...path, key], message: unknownKeyMessage(path, key) });
    } else if (issue.code === 'invalid_union') {
      const branch = intendedBranch(issue.errors);
      if (branch) problems.push(...problemsFromIssues(branch, path));
      else problems.push({ path, message: issue.message });
    } else if (issue.code === 'invalid_key') {
      problems.push({ path, message: issue.issues[0]?.message ?? issue.message });
    } else {
      problems.push({ path, message: issue.message });
    }
  }
  return problems;
}

// The one alternative whose type the value has (an array for `run: [ls, 5]`), if there is exactly one.
function intendedBranch(
  branches: readonly (readonly z.core.$ZodIssue[])[],
): readonly z.core.$ZodIssue[] | null {
  const typed = branches.filter(
    (issues) => !issues.some((issue) => issue.path.length === 0 && issue.code === 'invalid_type'),
  );
  return typed.length === 1 ? typed[0]! : null;
}

function unknownKeyMessage(parent: readonly PropertyKey[], key: string): string {
  const atStage = parent.length === 2 && parent[0] === 'stages';
  const known = atStage ? STAGE_KEYS : PIPELINE_KEYS;
  const suggestion = suggestKey(key, known);
  if (suggestion !== null) return `unknown key; did you mean "${suggestion}"?`;
  if (!atStage && STAGE_KEYS.includes(key)) {
    return `unknown key at the pipeline level; "${key}" belongs in a stage under "stages"`;
  }
  if (atStage && PIPELINE_KEYS.includes(key)) {
    return `unknown key in a stage; "${key}" is a pipeline-level key`;
  }
  return `unknown key; expected one of: ${known.join(', ')}`;
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').replace(/[\u0000-\u001f\u007f]/g, '?');
}

function stageIndex(problem: SpecProblem): number {
  const [first, second] = problem.path;
  return first === 'stages' && typeof second === 'number' ? second : -1;
}

// "pipeline.yaml: stages[1].run: expected ...", one line per problem, pipeline-level ones first.
function formatProblems(label: string, problems: readonly SpecProblem[]): string[] {
  const ordered = [...problems].sort((a, b) => stageIndex(a) - stageIndex(b));
  // A Set keeps this linear: a spec of 16k broken stages has 16k problems.
  const seen = new Set<string>();
  for (const problem of ordered) {
    const where = formatPath(problem.path);
    seen.add(oneLine(`${label}: ${where === '' ? '' : `${where}: `}${problem.message}`));
  }
  const lines = [...seen];
  if (lines.length <= MAX_LINES) return lines;
  const more = lines.length - MAX_LINES;
  return [
    ...lines.slice(0, MAX_LINES),
    `${oneLine(label)}: … and ${more} more problem${more === 1 ? '' : 's'}`,
  ];
}

export function specError(
  code: RequestErrorCode,
  label: string,
  problems: readonly SpecProblem[],
): RequestError {
  return new RequestError(code, formatProblems(label, problems).join('\n'));
}
