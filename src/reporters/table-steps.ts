import type { ChalkInstance } from 'chalk';
import type { Report } from '../types.js';
import { pipelineText } from './ci/command-text.js';

// The steps of a -c text in the table: each step's heading over its stages, and the command line.

// How a step that did not run is shown, by why (report.ts, StepReport.skippedBecause).
const SKIPPED = {
  'short-circuit': 'skipped',
  timeout: 'skipped (time limit)',
  refused: 'refused',
  'after-refusal': 'skipped (a step before it was refused)',
  exit: 'skipped (after exit)',
  errexit: 'skipped (set -e ended the text)',
  error: 'skipped (the shell ended on an error)',
  stopped: 'skipped (a step before it was stopped)',
} as const;

// A step's heading: its place among the steps, its text, where it ran when that changed, the pass of
// the loops around it, how many more times it succeeded, indented under the step it ran inside.
export function stepHeading(
  report: Report,
  step: NonNullable<Report['steps']>[number],
  chalk: ChalkInstance,
): string {
  const depth = depthOf(report, step);
  const joined = step.connector ? `${step.connector} ` : '';
  const previous = report.steps?.[step.index - 2];
  const moved = previous && previous.cwd !== step.cwd ? ` (in ${step.cwd})` : '';
  const pass = step.iteration ? ` (pass ${step.iteration})` : '';
  const repeats = step.repeats ? ` (and ${step.repeats} more time${step.repeats === 1 ? '' : 's'}, ok)` : '';
  const text = `${'  '.repeat(depth)}step ${step.index}${pass}: ${joined}${oneLine(step.text)}${moved}${repeats}`;
  const skipped = SKIPPED[step.skippedBecause ?? 'short-circuit'];
  return step.ran ? chalk.cyan(text) : chalk.dim(`${text}: ${skipped}`);
}

function depthOf(report: Report, step: NonNullable<Report['steps']>[number]): number {
  let depth = 0;
  for (let parent = step.parent; parent !== undefined && depth < 20; depth++)
    parent = report.steps?.[parent - 1]?.parent;
  return depth;
}

// A step's text on one line of the table: newlines (heredoc bodies) and control characters escaped.
function oneLine(text: string): string {
  const escaped = text.replace(/[\x00-\x1f\x7f]/g, (c) =>
    c === '\n' ? '\\n' : c === '\t' ? '\\t' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
  return escaped.length > 100 ? `${escaped.slice(0, 99)}…` : escaped;
}

// The command as given: the -c text as written, else the pipeline's argv.
export function commandText(report: Report): string {
  if (report.command !== undefined && !report.fallback) return oneLine(report.command);
  const steps = report.steps ?? [];
  if (steps.length === 0 || report.fallback) return pipelineText(report.stages);
  return oneLine(steps.map((step) => step.text).join('; '));
}
