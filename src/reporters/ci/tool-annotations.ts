import path from 'node:path';
import type { Report, StageResult } from '../../types.js';
import { findProblems, type ToolProblem } from './tool-problems.js';
import { escapeData, escapeProperty } from './workflow-escape.js';

// GitHub shows at most 10 error, 10 warning and 10 notice annotations per step. safe-run's own
// ::error for the blamed stage is one of the errors, so the tool gets 9; what is left over is
// counted in one notice.
export const MAX_TOOL_ERRORS = 9;
export const MAX_TOOL_WARNINGS = 10;

// Where the tool's paths are read from: the job's checkout (GITHUB_WORKSPACE, to which GitHub
// wants annotation paths relative) and the directory the run started in.
export interface ToolPlaces {
  workspace: string | null;
  cwd: string;
}

interface StageProblems {
  stage: StageResult;
  problems: ToolProblem[];
}

// The text the blamed stage printed: its stderr and stdout, and when its stdout went into the next
// stage of its pipeline (`make 2>&1 | tee log`), what came out at the end of that pipe.
function printedBy(report: Report, stage: StageResult): string[] {
  const texts = [stage.stderr.text, stage.stdout.text];
  let from = stage;
  while (from.stdout.bytes === null && from.stdout.target === undefined) {
    const next = report.stages[from.index];
    if (!next || next.step !== from.step) break;
    texts.push(next.stdout.text);
    from = next;
  }
  return texts.filter((text): text is string => text !== null && text.length > 0);
}

// The problems in the output of the stage that decided a run that was not ok; null when none.
function blamedStageProblems(report: Report): StageProblems | null {
  const index = report.verdict.blamedStage;
  const stage = report.ok || index === null ? undefined : report.stages[index - 1];
  if (!stage) return null;
  const problems = findProblems(printedBy(report, stage).join('\n'));
  return problems.length > 0 ? { stage, problems } : null;
}

// The directory the stage ran in: its step's (a -c list can cd), else the run's.
function stageDirectory(report: Report, stage: StageResult, places: ToolPlaces): string {
  const step = report.steps?.find((item) => item.index === stage.step);
  return path.resolve(places.cwd, step?.cwd ?? '.');
}

// A path relative to the checkout when the file is in it; otherwise as the tool printed it.
export function annotationPath(file: string, directory: string, workspace: string | null): string {
  if (!workspace) return file;
  const relative = path.relative(path.resolve(workspace), path.resolve(directory, file));
  return relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}

function annotation(problem: ToolProblem, stage: StageResult, file: string): string {
  const title = `stage ${stage.index} "${stage.name}"${problem.code ? `: ${problem.code}` : ''}`;
  const props = [`file=${escapeProperty(file)}`, `line=${problem.line}`];
  if (problem.col !== null) props.push(`col=${problem.col}`);
  props.push(`title=${escapeProperty(title)}`);
  return `::${problem.level} ${props.join(',')}::${escapeData(problem.message)}`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function leftOverNotice(stage: StageResult, errors: number, warnings: number): string {
  const title = `safe-run: more problems from stage ${stage.index} "${stage.name}"`;
  const text =
    `${plural(errors, 'more error')} and ${plural(warnings, 'more warning')} in its output were not ` +
    `annotated (a step shows at most ${MAX_TOOL_ERRORS + 1} errors, safe-run's own included, and ` +
    `${MAX_TOOL_WARNINGS} warnings); they are in the log above`;
  return `::notice title=${escapeProperty(title)}::${escapeData(text)}`;
}

// ::error and ::warning annotations, one per problem the blamed stage's tool printed (at most
// MAX_TOOL_ERRORS and MAX_TOOL_WARNINGS, the first ones), and a notice counting the rest.
export function renderToolAnnotations(report: Report, places: ToolPlaces): string {
  const found = blamedStageProblems(report);
  if (!found) return '';
  const { stage, problems } = found;
  const directory = stageDirectory(report, stage, places);
  const lines: string[] = [];
  const left = { error: 0, warning: 0 };
  const shown = { error: 0, warning: 0 };
  const limit = { error: MAX_TOOL_ERRORS, warning: MAX_TOOL_WARNINGS };
  for (const problem of problems) {
    if (shown[problem.level] >= limit[problem.level]) left[problem.level] += 1;
    else {
      shown[problem.level] += 1;
      lines.push(annotation(problem, stage, annotationPath(problem.file, directory, places.workspace)));
    }
  }
  if (left.error + left.warning > 0) lines.push(leftOverNotice(stage, left.error, left.warning));
  return `${lines.join('\n')}\n`;
}

// The places of a run started in `runCwd` (--cwd, else safe-run's own directory) under `env`.
export function toolPlaces(env: NodeJS.ProcessEnv, runCwd: string | undefined): ToolPlaces {
  return { workspace: env.GITHUB_WORKSPACE || null, cwd: runCwd ?? process.cwd() };
}
