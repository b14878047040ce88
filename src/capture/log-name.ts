// Runs that share one --log-dir must not write over each other's files (issue 15): every file of a
// run starts with the run's start time (UTC, to the second, so a listing sorts by run) and safe-run's
// pid, unique among the runs alive at that second. The file is also opened exclusively, so even a
// reused pid within the same second cannot replace another run's log.
export function runLogPrefix(startedAt: Date, pid: number): string {
  const stamp = startedAt
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${pid}.`;
}
