import type { ChalkInstance } from 'chalk';
import { maxOf } from '../arrays.js';
import { formatBytes, formatDuration } from '../format-units.js';
import { statusText } from '../outcome-text/render.js';
import { WORDINGS } from '../outcome-text/wordings.js';
import { shownText } from '../shown-text.js';
import type { Report, StageResult, StageStatus, StreamReport } from '../types.js';
import type { Reporter } from './reporter.js';
import { commandText, stepHeading } from './table-steps.js';

type Paint = (text: string) => string;

function statusPaint(chalk: ChalkInstance, status: StageStatus, succeeded: boolean): Paint {
  if (status === 'ok') return chalk.green;
  if (status === 'skipped') return chalk.dim;
  if (succeeded) return chalk.yellow;
  return chalk.red;
}

export function exitText(stage: StageResult): string {
  if (stage.signal !== null) return stage.signal;
  if (stage.exitCode !== null) return String(stage.exitCode);
  return '-';
}

export function streamText(stage: StageResult, stream: StreamReport): string {
  if (stage.status === 'not-started' || stage.status === 'skipped') return '-';
  if (stream.target) return WORDINGS.table.target(stream.target);
  if (stream.bytes === null) return 'piped';
  const size = `${formatBytes(stream.bytes)}${stream.truncated ? '*' : ''}`;
  if (stream.binary) return `${size} binary`;
  return stream.escapedBytes ? `${size} (${stream.escapedBytes} not UTF-8)` : size;
}

function pad(cells: string[][]): string[] {
  const widths = cells[0]!.map((_, column) => maxOf(cells.map((row) => row[column]!.length)));
  return cells.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd(),
  );
}

// The table's header and one row per stage, not yet padded.
function tableCells(report: Report): string[][] {
  const header = ['#', 'STAGE', 'STATUS', 'EXIT', 'TIME', 'STDOUT', 'STDERR'];
  const rows = report.stages.map((stage) => [
    String(stage.index),
    shownText(stage.name),
    statusText(stage),
    exitText(stage),
    stage.durationMs === null ? '-' : formatDuration(stage.durationMs),
    streamText(stage, stage.stdout),
    streamText(stage, stage.stderr),
  ]);
  return [header, ...rows];
}

// One stage's row, and what is worth saying under it.
function stageLines(
  report: Report,
  stage: Report['stages'][number],
  line: string,
  chalk: ChalkInstance,
  out: string[],
): void {
  const paint = statusPaint(chalk, stage.status, stage.succeeded);
  out.push(paint(line));
  if (stage.error) out.push(chalk.red(shownText(`   ${stage.error.code}: ${stage.error.message}`)));
  if (stage.hint) out.push(chalk.dim(shownText(`   hint: ${stage.hint}`)));
  if (stage.meaning && stage.exitCode !== 0) out.push(chalk.dim(shownText(`   meaning: ${stage.meaning}`)));
  for (const fact of report.facts) {
    if (fact.stage === stage.index) out.push(chalk.yellow(shownText(`   fact: ${fact.summary}`)));
  }
  if (stage.stop) {
    const { afterMs, reason, signals } = stage.stop;
    out.push(
      chalk.yellow(shownText(`   ${WORDINGS.table.stopped(formatDuration(afterMs), reason, signals)}`)),
    );
    for (const proc of stage.stop.snapshot) {
      out.push(chalk.dim(shownText(`     pid ${proc.pid} (${proc.command}): ${proc.explanation}`)));
    }
    if (stage.stop.deadlock)
      out.push(chalk.red(shownText(`     DEADLOCK: ${stage.stop.deadlock.explanation}`)));
  }
  for (const stream of [stage.stdout, stage.stderr]) {
    if (stream.logFile) out.push(chalk.dim(shownText(`   log: ${stream.logFile}`)));
  }
}

// The per-stage table printed on stderr after a run, then the verdict and anything worth a warning.
// `speaker`: what the verdict line begins with ("safe-run: " in a log where other programs write too).
export function renderTable(report: Report, chalk: ChalkInstance, speaker = 'safe-run: '): string {
  const lines = pad(tableCells(report));
  // A CI job runs many commands: the table says which one it is about.
  const out: string[] = [chalk.dim(`command: ${commandText(report)}`), chalk.bold(lines[0]!)];
  if (report.fallback) {
    out.push(
      chalk.yellow(
        `run by bash (--fallback bash): ${report.fallback.construct} at column ${report.fallback.column} is not interpreted by safe-run`,
      ),
    );
  }
  const grouped = (report.steps?.length ?? 0) > 1;
  const row = (i: number) => stageLines(report, report.stages[i]!, lines[i + 1]!, chalk, out);
  if (!grouped) for (const i of report.stages.keys()) row(i);
  else {
    for (const step of report.steps ?? []) {
      out.push(stepHeading(report, step, chalk));
      for (const index of step.stages) row(index - 1);
    }
  }
  if (report.stages.some((stage) => stage.stdout.truncated || stage.stderr.truncated)) {
    out.push(chalk.dim('* more than the cap was written: head and tail kept in the report'));
  }
  out.push(...deliveryLines(report, chalk));
  out.push(...noticeLines(report, chalk));
  const verdict = report.verdict;
  const head = verdict.ok ? chalk.green.bold('ok') : chalk.red.bold('not ok');
  out.push(`${speaker}${head}, exit ${verdict.exitCode} (${shownText(verdict.reason)})`);
  if (report.next) out.push(chalk.dim(shownText(`next: ${report.next}`)));
  return `${out.join('\n')}\n`;
}

// One line per check of the staged output, then one for the output file itself.
function deliveryLines(report: Report, chalk: ChalkInstance): string[] {
  const out: string[] = [];
  for (const check of report.checks) {
    const paint = check.status === 'passed' ? chalk.green : check.status === 'failed' ? chalk.red : chalk.dim;
    out.push(paint(shownText(`check ${check.check}: ${check.status}, ${check.detail}`)));
  }
  const output = report.output;
  if (output) {
    const paint = output.published ? chalk.green : chalk.yellow;
    const what = output.published
      ? 'published'
      : output.kept
        ? `not published, kept as ${output.kept}`
        : 'not published';
    out.push(
      paint(shownText(`output ${output.file}: ${what} (${formatBytes(output.bytes)}); ${output.reason}`)),
    );
  }
  return out;
}

// Hundreds of leftovers (a fork bomb's remains) would bury the verdict: the table shows the first ones.
const SHOWN_LEFTOVERS = 10;

function noticeLines(report: Report, chalk: ChalkInstance): string[] {
  const out: string[] = [];
  for (const leftover of report.leftovers.slice(0, SHOWN_LEFTOVERS)) {
    const from = leftover.stage ? ` from stage "${leftover.stage}"` : '';
    out.push(
      chalk.yellow(
        shownText(
          `leftover: pid ${leftover.pid} (${leftover.command})${from}: ${leftover.how}; ${leftover.action}`,
        ),
      ),
    );
  }
  const rest = report.leftovers.slice(SHOWN_LEFTOVERS);
  if (rest.length > 0) {
    const killed = rest.filter((leftover) => leftover.action === 'killed').length;
    const fates = [
      killed > 0 ? `${killed} killed` : '',
      killed < rest.length ? `${rest.length - killed} kept` : '',
    ]
      .filter(Boolean)
      .join(', ');
    out.push(chalk.yellow(`leftover: ${rest.length} more (${fates}); the JSON report lists every one`));
  }
  for (const warning of report.warnings) out.push(chalk.yellow(shownText(`warning: ${warning}`)));
  return out;
}

// Leftovers and warnings alone, for --quiet runs that were ok.
export function renderNotices(report: Report, chalk: ChalkInstance): string {
  const lines = noticeLines(report, chalk);
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

interface TableOptions {
  chalk: ChalkInstance;
  // --quiet: a run that is ok shows only what needs attention (held pipes, leftovers, PATH warnings).
  quiet: boolean;
  // stdout and stderr share a terminal: start the table on a line of its own when the last stage's
  // output did not end one.
  sharedScreen: boolean;
}

// The per-stage table on stderr, for a person.
export function tableReporter(options: TableOptions): Reporter {
  return {
    name: 'table',
    destination: { kind: 'stderr' },
    render(report: Report): string {
      if (options.quiet && report.ok) return renderNotices(report, options.chalk);
      const text = report.stages[report.stages.length - 1]?.stdout.text ?? '';
      const separator = options.sharedScreen && text.length > 0 && !text.endsWith('\n') ? '\n' : '';
      return `${separator}${renderTable(report, options.chalk)}`;
    },
  };
}
