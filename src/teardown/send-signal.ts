import { type ProcInfo, readProcess } from './proc-read.js';

// safe-run's own process group. Only this process could change it (setpgid, setsid), and Node calls
// neither, so a reading holds for the process's life; a failed one (no descriptor left, no /proc) is
// not kept, or one bad moment of a long-lived server would leave the guard below a wrong group.
let ownPgid: number | null = null;
function ownGroup(): number {
  ownPgid ??= readProcess(process.pid)?.pgid ?? null;
  return ownPgid ?? process.pid;
}

// The one guard on process-group ids: kill(0) and kill(-1) would signal our own group or every
// process we may signal, and safe-run never signals its own group.
export function assertGroup(pgid: number): void {
  if (!Number.isInteger(pgid) || pgid <= 1) throw new RangeError(`${pgid} is not a process group id`);
  if (pgid === ownGroup()) throw new RangeError(`refusing to signal safe-run's own process group ${pgid}`);
}

// The one way safe-run sends a signal (a negative target is a group); false when the target is gone
// (ESRCH) or not ours (EPERM).
export function sendSignal(target: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(target, signal);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ESRCH' || code === 'EPERM') return false;
    throw error;
  }
}

// A process and its start time: a pid seen again with another start time is someone else.
export const identity = (info: ProcInfo) => `${info.pid}:${info.start}`;

// The process seen before is still there (a zombie has finished dying: only its parent's wait is
// missing, and PID 1 here may reap late).
export function stillThere(info: ProcInfo): ProcInfo | null {
  const now = readProcess(info.pid);
  if (!now || now.start !== info.start || now.state === 'Z' || now.state === 'X') return null;
  return now;
}
