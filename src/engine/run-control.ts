import type { HangReport } from '../hang/hang-report.js';
import { maskHangReport } from '../hang/mask-hang.js';
import type { CancelSource, Interruption } from '../types.js';
import { type StageProgress, snapshotProgress } from './progress.js';
import type { StageRun } from './stage-run.js';
import type { Supervisor } from './supervisor.js';

// A request to stop (a signal to safe-run) may come at any moment: before the stages exist (while
// the stdin FIFO waits for a writer), or while they run. This holds it until someone can act on it.
export class RunControl {
  private requested: Interruption | null = null;
  private supervisor: Supervisor | null = null;
  private watched: { runs: readonly StageRun[]; secrets: readonly string[] } = { runs: [], secrets: [] };
  private wake: (interruption: Interruption) => void = () => {};
  // Resolves when safe-run is asked to stop before its stages exist: the signal, and who asked.
  readonly interrupt = new Promise<Interruption>((resolve) => {
    this.wake = resolve;
  });

  get cancelRequest(): Interruption | null {
    return this.requested;
  }

  // `by`: who asked, when it is not a signal to safe-run (model/stop-cause.ts).
  cancel(signal: NodeJS.Signals, by?: CancelSource): void {
    this.requested ??= { signal, by };
    this.supervisor?.cancel(signal, by);
    this.wake({ signal, by });
  }

  // The stages whose progress a live view or a heartbeat may read.
  watch(runs: readonly StageRun[], secrets: readonly string[]): void {
    this.watched = { runs, secrets };
  }

  progress(): StageProgress[] {
    return snapshotProgress(this.watched.runs, this.watched.secrets);
  }

  // Who waits for whom now, masked like the report; null before the stages exist.
  inspect(): HangReport | null {
    const report = this.supervisor?.snapshot() ?? null;
    return report && maskHangReport(report, this.watched.secrets);
  }

  // From now on requests go to the supervisor; one that came earlier is passed on at once.
  attach(supervisor: Supervisor): void {
    this.supervisor = supervisor;
    if (this.requested) supervisor.cancel(this.requested.signal, this.requested.by);
  }
}
