import { maskText } from '../capture/mask.js';
import { monotonicMs } from '../monotonic-ms.js';
import type { StageRun } from './stage-run.js';

// One stage as it runs, for a live display or a heartbeat. Read-only: taking it changes nothing.
export interface StageProgress {
  index: number;
  name: string;
  argv: string[];
  state: 'waiting' | 'running' | 'exited';
  pid: number | null;
  elapsedMs: number;
  // Bytes seen by safe-run; stdout is null when it goes straight into the next stage's pipe.
  stdoutBytes: number | null;
  stderrBytes: number;
  // The last line the stage printed on either stream safe-run reads, masked; null before any.
  lastLine: string | null;
}

export function snapshotProgress(runs: readonly StageRun[], secrets: readonly string[]): StageProgress[] {
  const now = monotonicMs();
  return runs.map((run) => {
    const out = run.stdoutSinks?.progress() ?? null;
    const err = run.stderrSinks?.progress() ?? null;
    const latest = [out, err].filter((p) => p?.lastLine).sort((a, b) => (b!.at ?? 0) - (a!.at ?? 0))[0];
    const state = run.exit !== null ? 'exited' : run.pid !== null ? 'running' : 'waiting';
    return {
      index: run.index,
      name: maskText(run.spec.name, secrets),
      argv: run.spec.argv.map((arg) => maskText(arg, secrets)),
      state,
      pid: run.pid,
      elapsedMs: run.startNs === null ? 0 : Math.round((run.endNs ?? now) - run.startNs),
      stdoutBytes: out?.bytes ?? null,
      stderrBytes: err?.bytes ?? 0,
      lastLine: latest?.lastLine ? maskText(latest.lastLine, secrets) : null,
    };
  });
}
