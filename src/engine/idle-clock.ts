import fs from 'node:fs';
import { monotonicMs } from '../monotonic-ms.js';
import { HeldStages } from './held-stages.js';
import type { StageRun } from './stage-run.js';

// When the pipeline last did anything, for --idle-timeout: output through safe-run (noted by the
// streams), bytes through the pipes between stages, or a stage held by safe-run's own output.
export class IdleClock {
  private lastActivity = monotonicMs();
  private lastIoTotal = -1;
  private held: HeldStages | null = null;
  private fired = false;

  note(): void {
    this.lastActivity = monotonicMs();
  }

  // How long since the last activity noted.
  quietMs(): number {
    return monotonicMs() - this.lastActivity;
  }

  // True once: at the first check that finds `idleMs` gone by without activity.
  idleNow(runs: readonly StageRun[], idleMs: number, warnings: string[]): boolean {
    // Bytes through the pipes between stages never pass through safe-run, so activity also counts as
    // any change in the stages' read/write counters (/proc/PID/io on Linux).
    let total = 0;
    for (const run of runs) {
      if (run.running) total += ioCounter(run.pid!);
    }
    if (total !== this.lastIoTotal) {
      if (this.lastIoTotal !== -1) this.note();
      this.lastIoTotal = total;
    }
    this.held ??= new HeldStages(idleMs, warnings);
    if (this.held.check(runs, monotonicMs())) this.note();
    if (this.fired || monotonicMs() - this.lastActivity < idleMs) return false;
    this.fired = true;
    return true;
  }
}

function ioCounter(pid: number): number {
  try {
    const text = fs.readFileSync(`/proc/${pid}/io`, 'utf8');
    const read = /rchar:\s*(\d+)/.exec(text);
    const written = /wchar:\s*(\d+)/.exec(text);
    return Number(read?.[1] ?? 0) + Number(written?.[1] ?? 0);
  } catch {
    return 0;
  }
}
