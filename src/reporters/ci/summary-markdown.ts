import { formatDuration } from '../../format-units.js';
import { statusText } from '../../outcome-text/render.js';
import type { Report } from '../../types.js';
import type { Reporter } from '../reporter.js';
import { exitText, streamText } from '../table.js';
import { commandText as runText } from '../table-steps.js';
import { commandText } from './command-text.js';

// Text in a table cell: no line breaks, no "|" that would end the cell, no HTML the page renders.
function cell(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('|', '\\|')
    .replaceAll(/[\r\n]+/g, ' ');
}

// A code span that holds any text: a fence longer than the longest run of backticks inside. HTML
// is not read in a code span (so not escaped); a "|" still ends a table cell unless escaped.
function code(text: string, inTable = true): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  const flat = text.replaceAll(/[\r\n]+/g, ' ');
  const inner = inTable ? flat.replaceAll('|', '\\|') : flat;
  return `${fence}${pad}${inner}${pad}${fence}`;
}

// The step summary (GitHub's $GITHUB_STEP_SUMMARY is Markdown), appended to the file the runner
// hands over.
export function summaryReporter(path: string): Reporter {
  return {
    name: 'step-summary',
    destination: { kind: 'append', path, flag: 'step summary' },
    render: renderSummaryMarkdown,
  };
}

// The step summary's Markdown: the verdict as a heading, the command, one table row per stage,
// and what to do next.
function renderSummaryMarkdown(report: Report): string {
  const verdict = report.ok ? 'ok' : 'not ok';
  const out = [
    `### safe-run: ${verdict}, exit ${report.exitCode}`,
    '',
    // What was run as the table's `command:` line says it: a -c text or a script as written (its
    // steps are not one pipeline), else the pipeline.
    code(runText(report), false),
    '',
    '| # | stage | command | status | exit | time | stdout | stderr |',
    '| --: | --- | --- | --- | --- | --: | --: | --: |',
  ];
  for (const stage of report.stages) {
    const time = stage.durationMs === null ? '-' : formatDuration(stage.durationMs);
    const cells = [
      String(stage.index),
      cell(stage.name),
      code(commandText(stage.argv)),
      cell(statusText(stage)),
      exitText(stage),
      time,
      streamText(stage, stage.stdout),
      streamText(stage, stage.stderr),
    ];
    out.push(`| ${cells.join(' | ')} |`);
  }
  out.push('', `**verdict:** ${cell(report.verdict.reason)}`);
  if (report.next) out.push('', `**next:** ${cell(report.next)}`);
  for (const warning of report.warnings) out.push('', `**warning:** ${cell(warning)}`);
  return `${out.join('\n')}\n\n`;
}
