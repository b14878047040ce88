import type { BlockedProcess } from '../types.js';
import { short } from './explain.js';
import type { HangReport } from './hang-report.js';

function line(entry: BlockedProcess, depth: number): string {
  const stage = entry.stage === null ? '' : `[stage ${entry.stage}] `;
  return `${'  '.repeat(depth + 1)}${stage}pid ${entry.pid} ${entry.state} \`${short(entry.command)}\`: ${entry.explanation}`;
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
  if (report.deadlock) lines.push(`  DEADLOCK: ${report.deadlock.explanation}`);
  return `${lines.join('\n')}\n`;
}
