import { formatDuration } from '../format-units.js';
import type { StageRun } from './stage-run.js';

// A stage blocked writing into a pipe that safe-run stopped reading (its own stdout's reader, or the
// log's disk, fell behind) is not idle: safe-run is the one holding it. The idle clock treats that
// time as activity, and the run says afterwards who waited for whom, instead of blaming the stage.
export class HeldStages {
  private readonly since = new Map<StageRun, number>();
  private readonly told = new Set<StageRun>();

  constructor(
    private readonly idleMs: number,
    private readonly warnings: string[],
  ) {}

  // True when some running stage is held by safe-run now.
  check(runs: readonly StageRun[], now: number): boolean {
    let any = false;
    for (const run of runs) {
      const held = run.running && [run.stdoutSinks, run.stderrSinks].some((sinks) => sinks?.held === true);
      if (!held) {
        this.since.delete(run);
        continue;
      }
      any = true;
      const from = this.since.get(run) ?? now;
      this.since.set(run, from);
      if (now - from >= this.idleMs && !this.told.has(run)) {
        this.told.add(run);
        this.warnings.push(
          `stage ${run.index} "${run.spec.name}" waited more than ${formatDuration(this.idleMs)} to write ` +
            "because safe-run's own output (its reader, or the log's disk) was not keeping up; " +
            'that time did not count toward --idle-timeout',
        );
      }
    }
    return any;
  }
}
