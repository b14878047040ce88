import { outcomePhrase } from '../../outcome-text/render.js';
import { WORDINGS } from '../../outcome-text/wordings.js';
import type { Report, StageResult } from '../../types.js';
import { commandText } from './command-text.js';
import { prefixedLines } from './github.js';

// GitLab folds a job log between "section_start:UNIX:NAME" and "section_end:UNIX:NAME" lines; each
// marker ends with "\r\e[0K" so a terminal that does not know them erases what it printed.
const ERASE = '\x1b[0K';

function seconds(iso: string | null, fallback: number): number {
  return iso === null ? fallback : Math.floor(Date.parse(iso) / 1000);
}

// Section names may hold only letters, digits, "_", "." and "-".
function sectionName(stage: StageResult): string {
  return `safe_run_stage_${stage.index}`;
}

function header(stage: StageResult): string {
  return `${WORDINGS.outcome.who(stage)}: ${commandText(stage.argv)} (${outcomePhrase(stage)})`;
}

// One collapsed section per stage with the stderr safe-run kept for it, printed after the run.
export function renderGitlabSections(report: Report): string {
  const runStart = seconds(report.startedAt, 0);
  const out: string[] = [];
  for (const stage of report.stages) {
    const start = seconds(stage.startedAt, runStart);
    const end = start + Math.round((stage.durationMs ?? 0) / 1000);
    const name = sectionName(stage);
    // The header is printed text: a stage name or argument cannot hold a raw escape here.
    const title = header(stage).replaceAll(/[\x00-\x1f\x7f]/g, '?');
    out.push(`${ERASE}section_start:${start}:${name}[collapsed=true]\r${ERASE}${title}`);
    const lines = prefixedLines(stage);
    out.push(...(lines.length > 0 ? lines : ['(no stderr)']));
    out.push(`${ERASE}section_end:${end}:${name}\r${ERASE}`);
  }
  return `${out.join('\n')}\n`;
}

// The summary in its own open section, so it stands out in a long job log.
export function renderGitlabSummary(report: Report, table: string): string {
  const at = seconds(report.startedAt, 0) + Math.round(report.durationMs / 1000);
  return (
    `${ERASE}section_start:${at}:safe_run_summary\r${ERASE}safe-run summary\n` +
    table +
    `${ERASE}section_end:${at}:safe_run_summary\r${ERASE}\n`
  );
}
