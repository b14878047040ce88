import { shownText } from '../shown-text.js';
import type { BlockedProcess } from '../types.js';
import { short } from './explain.js';
import type { HangReport } from './hang-report.js';

// Command lines and the sentences that quote them may hold ESC and other control bytes: shown as
// escapes (\e, \x07), as the table shows them, never sent raw to a terminal.
function line(entry: BlockedProcess, depth: number): string {
  const stage = entry.stage === null ? '' : `[stage ${entry.stage}] `;
  const text = `${stage}pid ${entry.pid} ${entry.state} \`${short(entry.command)}\`: ${entry.explanation}`;
  return `${'  '.repeat(depth + 1)}${shownText(text)}`;
}

// The text form of a hang report (SIGUSR1 during a run, `safe-run inspect`): one line per process,
// children indented under their parents, then the deadlock if there is one.
export function renderHangReport(report: HangReport, title: string): string {
  const lines = [title];
  const pids = new Set(report.processes.map((entry) => entry.pid));
  const visit = (entry: BlockedProcess, depth: number) => {
    lines.push(line(entry, depth));
    for (const child of report.processes) {
      if (child.ppid === entry.pid && child.pid !== entry.pid) visit(child, depth + 1);
    }
  };
  for (const entry of report.processes) if (!pids.has(entry.ppid)) visit(entry, 0);
  if (report.processes.length === 0) lines.push('  (no processes found)');
  if (report.deadlock) lines.push(`  DEADLOCK: ${shownText(report.deadlock.explanation)}`);
  return `${lines.join('\n')}\n`;
}
