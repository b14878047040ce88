import { closeSync, openSync, readlinkSync, readSync } from 'node:fs';
import { monotonicMs } from '../monotonic-ms.js';

// Every process a run has to find (a stage, its children, an escaped grandchild carrying the marker)
// was forked after the run began, so its pid was allocated after the run's first look at
// /proc/sys/kernel/ns_last_pid. Linux hands out pids in increasing order, wrapping at pid_max to 300
// (kernel/pid.c, RESERVED_PIDS), so those pids lie in the cyclic interval (first last_pid, last_pid
// now]. Probing only that interval makes a sweep cost what the run forked, not how many processes
// the machine holds: reading every /proc/PID of 2,000 idle processes took 45-65 ms here, a window of
// a few hundred pids well under a millisecond.
//
// The one case where the interval lies is a full turn of the pid space during the run. It is caught by
// sampling last_pid often enough that a turn cannot fit between two samples: a turn needs pid_max - 300
// forks (32,468 here), which at 250 ms means over 130,000 forks a second. A sample that comes later
// than that, or a wrap past the run's first pid, closes the window for good, and every later scan
// reads all of /proc as before.
export interface ProcWindow {
  // Clock ticks since boot at which no process of the run can have started earlier (this process's own
  // start time: conservative for a long-lived caller that runs many pipelines).
  readonly startTicks: number;
  // Newest first, the pids a process forked since the window opened can have; null when the window
  // cannot tell any more (then every process must be looked at).
  candidates(): number[] | null;
  // True while no pid handed out since the window opened can have been handed out twice.
  intact(): boolean;
  close(): void;
}

const SAMPLE_MS = 100;
const MAX_GAP_MS = 250;
const RESERVED_PIDS = 300;

const buffer = Buffer.allocUnsafe(512);

function readSmall(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    return buffer.toString('latin1', 0, readSync(fd, buffer, 0, buffer.length, null));
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

function readNumber(path: string): number | null {
  const text = readSmall(path);
  const value = text === null ? Number.NaN : Number(text.trim());
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

// This process's start time from /proc/self/stat (field 22), or null. It never changes: read once (a
// -c text opens a window per step); a failed read is not kept, so it costs that run its window only.
let ownStart: number | null = null;
function ownStartTicks(): number | null {
  ownStart ??= readOwnStartTicks();
  return ownStart;
}

function readOwnStartTicks(): number | null {
  const text = readSmall('/proc/self/stat');
  if (!text) return null;
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[19]);
  return Number.isSafeInteger(ticks) ? ticks : null;
}

// /proc must show our own pid namespace, the one ns_last_pid counts in (a container can mount another).
// Which /proc is mounted does not change under a running process in practice: the answer is kept,
// but not a failure to ask (that run has no window, the next asks again).
let ours: boolean | null = null;
function procIsOurs(): boolean {
  if (ours === null) {
    try {
      ours = readlinkSync('/proc/self') === String(process.pid);
    } catch {
      return false;
    }
  }
  return ours;
}

// Opens a window on the processes forked from now on; null where /proc cannot tell (no /proc, no
// ns_last_pid, another namespace's /proc): then scans read every process, as they always did.
export function openProcWindow(): ProcWindow | null {
  const startTicks = ownStartTicks();
  const first = readNumber('/proc/sys/kernel/ns_last_pid');
  const pidMax = readNumber('/proc/sys/kernel/pid_max');
  if (startTicks === null || first === null || pidMax === null || !procIsOurs()) return null;
  let last = first;
  let travelled = 0;
  let sampledAt = monotonicMs();
  let open = true;
  const sample = () => {
    if (!open) return;
    const now = monotonicMs();
    const pid = readNumber('/proc/sys/kernel/ns_last_pid');
    if (pid === null || now - sampledAt > MAX_GAP_MS) {
      open = false;
      return;
    }
    travelled += pid >= last ? pid - last : pidMax - last + (pid - RESERVED_PIDS);
    last = pid;
    sampledAt = now;
    // Near a full turn, pids before the run's first could be handed out again to new processes.
    if (travelled >= pidMax - RESERVED_PIDS - 1) open = false;
  };
  const timer = setInterval(sample, SAMPLE_MS);
  timer.unref();
  return {
    startTicks,
    candidates() {
      sample();
      if (!open) return null;
      const pids: number[] = [];
      if (last >= first && travelled < pidMax - RESERVED_PIDS) {
        for (let pid = last; pid > first; pid--) pids.push(pid);
      } else {
        // Down to 2, not RESERVED_PIDS: a namespace that has not yet reached 300 wraps lower.
        for (let pid = last; pid >= 2; pid--) pids.push(pid);
        for (let pid = pidMax - 1; pid > first; pid--) pids.push(pid);
      }
      return pids;
    },
    intact() {
      sample();
      return open;
    },
    close() {
      open = false;
      clearInterval(timer);
    },
  };
}
