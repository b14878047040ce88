import { createHash } from 'node:crypto';
import { isWorkflowCommand } from '../../capture/workflow-commands.js';
import { outcomePhrase } from '../../outcome-text/render.js';
import { WORDINGS } from '../../outcome-text/wordings.js';
import type { Report, StageResult } from '../../types.js';
import { commandText, lastLines } from './command-text.js';
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
  return `${WORDINGS.outcome.who(stage)}: ${commandText(stage.argv)} (${outcomePhrase(stage)})`;
}

// The runner reads the old "##[command]" form anywhere in a line, so a prefix does not make a kept
// line inert: the lines go between ::stop-commands::TOKEN and ::TOKEN::, which the runner honours.
// The token is a digest of the lines it encloses, so none of them can hold it.
function stopCommands(lines: readonly string[]): [string, string] {
  const token = `safe-run-${createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 32)}`;
  return [`::stop-commands::${token}`, `::${token}::`];
}

// safe-run's own text (banner, table, next, heartbeat) can quote a stage's output or command: when
// a line of it would be read by the runner as a command, the whole text is made inert.
export function inertForRunner(text: string): string {
  const lines = text.split('\n');
  if (!lines.some(isWorkflowCommand)) return text;
  const body = text.endsWith('\n') ? lines.slice(0, -1) : lines;
  const [stop, resume] = stopCommands(body);
  return `${stop}\n${body.join('\n')}\n${resume}\n`;
}

// One collapsed group per stage with the stderr safe-run kept for it (head and tail), printed after
// the run: live output from several stages interleaves, so per-stage groups can only come at the end.
export function renderGithubGroups(report: Report): string {
  const out: string[] = [];
  for (const stage of report.stages) {
    out.push(`::group::${escapeData(groupTitle(stage))}`);
    const lines = prefixedLines(stage);
    if (lines.some((line) => line.includes('##['))) {
      const [stop, resume] = stopCommands(lines);
      out.push(stop, ...lines, resume);
    } else out.push(...(lines.length > 0 ? lines : ['(no stderr)']));
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
    ? `safe-run: ${WORDINGS.outcome.who(stage)} ${outcomePhrase(stage)}`
    : `safe-run: not ok, exit ${report.exitCode}`;
  const body: string[] = [];
  if (stage) body.push(`$ ${commandText(stage.argv)}`, ...lastLines(stage.stderr.text, ANNOTATION_LINES));
  body.push(`verdict: exit ${report.exitCode} (${report.verdict.reason})`);
  if (report.next) body.push(`next: ${report.next}`);
  return `::error title=${escapeProperty(title)}::${escapeData(body.join('\n'))}\n`;
}
