import type { HangReport } from '../hang/hang-report.js';
import type { Deadlock } from '../types.js';

// The first look after this long without output, then after twice as long each time, up to the last
// gap: a quiet build that is working is looked at a dozen times an hour, a deadlock is seen within
// about a second.
const FIRST_GAP_MS = 1000;
const MAX_GAP_MS = 30_000;

// --on-deadlock stop: takes a look at the run while it is quiet, and hears of every other look
// (the heartbeat's, SIGUSR1's); the first one that finds a deadlock stops the run.
export class DeadlockWatch {
  private gap = FIRST_GAP_MS;
  private nextAt = FIRST_GAP_MS;
  private lastQuiet = 0;
  private fired = false;

  constructor(private readonly onDeadlock: (deadlock: Deadlock) => void) {}

  // Whether a look is due, given how long the run has been quiet; output resets the schedule.
  due(quietMs: number): boolean {
    if (quietMs < this.lastQuiet) {
      this.gap = FIRST_GAP_MS;
      this.nextAt = FIRST_GAP_MS;
    }
    this.lastQuiet = quietMs;
    if (this.fired || quietMs < this.nextAt) return false;
    this.nextAt = quietMs + this.gap;
    this.gap = Math.min(this.gap * 2, MAX_GAP_MS);
    return true;
  }

  seen(report: HangReport): void {
    if (this.fired || report.deadlock === null) return;
    this.fired = true;
    this.onDeadlock(report.deadlock);
  }
}
