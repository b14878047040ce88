import type { Report } from '../types.js';

// A call stopped by its time or idle limit: the advice names the call's own fields that change the
// limit, and a job for what should not be waited for ("raising the limit" named none: the CLI's
// flags are not the model's to give).
export function withLimitFields(report: Report): Report {
  const { blamedStage } = report.verdict;
  if (report.ok || !report.next || blamedStage === null) return report;
  const cause = report.stages[blamedStage - 1]?.stop?.cause.kind;
  const field = cause === 'idle-timeout' ? 'idleTimeout' : cause === 'pipeline-timeout' ? 'timeout' : null;
  if (!field) return report;
  const next = `${report.next}; for this call that is "${field}": seconds (0: no limit), or run it as a job that nothing waits for ("background": true, or "yield": seconds), read with job_output`;
  return { ...report, next };
}
