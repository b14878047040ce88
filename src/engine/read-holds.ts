type HoldReason = 'log' | 'live';

// Why reading a stream is paused: the log's disk, safe-run's own stdout/stderr, or both. Reading
// resumes only when neither holds it any more.
export class ReadHolds {
  private readonly holds = new Set<HoldReason>();
  private waiting: (() => void)[] = [];
  private flow: { pause: () => void; resume: () => void } | null = null;

  setFlowControl(pause: () => void, resume: () => void): void {
    this.flow = { pause, resume };
  }

  get held(): boolean {
    return this.holds.size > 0;
  }

  // Pauses the source for this reason; false when it was held for it already (or cannot be paused).
  hold(why: HoldReason): boolean {
    if (!this.flow || this.holds.has(why)) return false;
    if (this.holds.size === 0) this.flow.pause();
    this.holds.add(why);
    return true;
  }

  release(why: HoldReason): void {
    if (!this.holds.delete(why) || this.holds.size > 0) return;
    this.flow?.resume();
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }

  released(): Promise<void> {
    return this.holds.size === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => this.waiting.push(resolve));
  }
}
