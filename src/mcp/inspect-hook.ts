// The hang report for a pid comes from `safe-run inspect PID --json`, built on another branch. Until
// it is wired here, the tool says so instead of inventing a report.
export type InspectResult =
  | { available: true; report: Record<string, unknown> }
  | { available: false; why: string };

export async function inspectPid(_pid: number): Promise<InspectResult> {
  return {
    available: false,
    why: 'not available in this build: the hang report (safe-run inspect PID) is not part of this safe-run version',
  };
}
