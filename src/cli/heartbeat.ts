import path from 'node:path';
import type { StageProgress } from '../engine/progress.js';
import { formatBytes, formatDuration } from '../format-units.js';
import type { HangReport } from '../hang/hang-report.js';
import { monotonicMs } from '../monotonic-ms.js';
import { commandText } from '../reporters/ci/command-text.js';
import { describeBlocked } from '../teardown/proc-blocked.js';
import { findProcesses } from '../teardown/proc-scan.js';

const STATES: Record<string, string> = {
  R: 'running on a CPU',
  S: 'sleeping',
  D: 'in uninterruptible I/O',
  T: 'stopped',
  t: 'stopped by a debugger',
  Z: 'exited, not yet reaped',
};

// What the processes of a stage's group are doing, from /proc, the stage's own process first:
// "sh (pid 12): sleeping in do_wait; sleep (pid 13): sleeping in hrtimer_nanosleep".
function describeGroup(pgid: number): string {
  const found = findProcesses({ pgids: [pgid] });
  const members = [...found.filter((p) => p.pid === pgid), ...found.filter((p) => p.pid !== pgid)].slice(
    0,
    4,
  );
  const parts = members.map((info) => {
    const program = path.basename(info.command.split(' ')[0] ?? '?');
    const blocked = describeBlocked(info.pid);
    const state = blocked?.state ?? info.state;
    const where = blocked?.wchan ? ` in ${blocked.wchan}` : '';
    return `${program} (pid ${info.pid}): ${STATES[state] ?? `state ${state}`}${where}`;
  });
  return parts.length > 0 ? parts.join('; ') : 'no process found in its group';
}

const programOf = (command: string) => path.basename(command.split(' ')[0] ?? '?');

// What a stage's processes are doing, in the hang diagnostics' words ("blocked writing to stdout, a
// pipe whose only reader, pid 13 `sleep 100`, never reads it"), its own process first, at most four.
// Without a look at the run (none taken, or the stage's processes not in it), wchan and state.
function describeStage(stage: StageProgress, hang: HangReport | null): string {
  const own = (hang?.processes ?? []).filter((entry) => entry.stage === stage.index && entry.state !== 'Z');
  if (own.length === 0) return describeGroup(stage.pid!);
  const ordered = [...own.filter((e) => e.pid === stage.pid), ...own.filter((e) => e.pid !== stage.pid)];
  const parts = ordered.slice(0, 4).map((e) => `${programOf(e.command)} (pid ${e.pid}): ${e.explanation}`);
  if (ordered.length > 4) parts.push(`${ordered.length - 4} more`);
  return parts.join('; ');
}

// One line per running stage, said when nothing was printed for a while (CI systems end jobs that
// stay silent, and a person watching wants to know the run is alive).
function heartbeatLines(stages: readonly StageProgress[], silentMs: number, hang: HangReport | null): string {
  const lines = stages
    .filter((stage) => stage.state === 'running' && stage.pid !== null)
    .map((stage) => {
      const out = stage.stdoutBytes === null ? 'stdout piped' : `stdout ${formatBytes(stage.stdoutBytes)}`;
      return `safe-run: heartbeat: stage ${stage.index} "${stage.name}" (${commandText(stage.argv)}) running for ${formatDuration(stage.elapsedMs)}, ${out}, stderr ${formatBytes(stage.stderrBytes)}, nothing printed for ${formatDuration(silentMs)}; ${describeStage(stage, hang)}`;
    });
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

// Bytes safe-run has shown so far: every stage's stderr and the last stage's stdout.
function printedBytes(stages: readonly StageProgress[]): number {
  return stages.reduce((sum, stage) => sum + stage.stderrBytes + (stage.stdoutBytes ?? 0), 0);
}

export interface Heartbeat {
  stop(): void;
}

interface HeartbeatSource {
  progress(): StageProgress[];
  inspect(): HangReport | null;
}

// Checks a few times per period whether anything was printed (counters only); after `periodMs` of
// silence writes the heartbeat, which counts as output, so a stage that stays silent gets one line
// per period. The look at /proc (the run's hang report) is taken only then, once per line written.
export function startHeartbeat(
  run: HeartbeatSource,
  periodMs: number,
  write: (text: string) => void,
): Heartbeat {
  let seen = -1;
  let quietSince = monotonicMs();
  const timer = setInterval(
    () => {
      const stages = run.progress();
      const bytes = printedBytes(stages);
      const now = monotonicMs();
      if (bytes !== seen) {
        seen = bytes;
        quietSince = now;
        return;
      }
      if (now - quietSince < periodMs) return;
      const running = stages.some((stage) => stage.state === 'running' && stage.pid !== null);
      write(heartbeatLines(stages, now - quietSince, running ? run.inspect() : null));
      quietSince = now;
    },
    Math.max(20, Math.min(1000, periodMs / 4)),
  );
  return { stop: () => clearInterval(timer) };
}
