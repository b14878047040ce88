import type { Report, StageResult } from '../../types.js';
import { commandText, lastLines, outcomePhrase } from './command-text.js';
import { escapeData, escapeProperty } from './workflow-escape.js';

// How many of the blamed stage's last stderr lines go into its annotation.
const ANNOTATION_LINES = 10;

// Kept stderr, each line prefixed with the stage name: a line of the stage's own output can then
// never start with "::" and be read by the runner as a command of safe-run's.
export function prefixedLines(stage: StageResult): string[] {
  if (stage.stderr.text === null) {
    return stage.stderr.binary ? [`[${stage.name}] (binary stderr, not shown)`] : [];
  }
  const text = stage.stderr.text.endsWith('\n') ? stage.stderr.text.slice(0, -1) : stage.stderr.text;
  if (text.length === 0) return [];
  return text.split('\n').map((line) => `[${stage.name}] ${line.replaceAll('\r', '')}`);
}

function groupTitle(stage: StageResult): string {
  return `stage ${stage.index} "${stage.name}": ${commandText(stage.argv)} (${outcomePhrase(stage)})`;
}

// One collapsed group per stage with the stderr safe-run kept for it (head and tail), printed after
// the run: live output from several stages interleaves, so per-stage groups can only come at the end.
export function renderGithubGroups(report: Report): string {
  const out: string[] = [];
  for (const stage of report.stages) {
    out.push(`::group::${escapeData(groupTitle(stage))}`);
    const lines = prefixedLines(stage);
    out.push(...(lines.length > 0 ? lines : ['(no stderr)']));
    out.push('::endgroup::');
  }
  return `${out.join('\n')}\n`;
}

function blamedStage(report: Report): StageResult | null {
  const index = report.verdict.blamedStage;
  return index === null ? null : (report.stages[index - 1] ?? null);
}

// The ::error annotation for a run that was not ok: the blamed stage, its command, its last stderr
// lines and what to do next. Empty for an ok run.
export function renderGithubAnnotation(report: Report): string {
  if (report.ok) return '';
  const stage = blamedStage(report);
  const title = stage
    ? `safe-run: stage ${stage.index} "${stage.name}" ${outcomePhrase(stage)}`
    : `safe-run: not ok, exit ${report.exitCode}`;
  const body: string[] = [];
  if (stage) body.push(`$ ${commandText(stage.argv)}`, ...lastLines(stage.stderr.text, ANNOTATION_LINES));
  body.push(`verdict: exit ${report.exitCode} (${report.verdict.reason})`);
  if (report.next) body.push(`next: ${report.next}`);
  return `::error title=${escapeProperty(title)}::${escapeData(body.join('\n'))}\n`;
}
