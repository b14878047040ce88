import { readText } from '../teardown/proc-read.js';
import { decodeSyscall } from './syscalls.js';

// How a look proves that what it read held at one moment. The files of a process are read one after
// another while it may run: a thread moving a pipe to another fd (dup2, then close) between two reads
// hides it; a server that accepts a connection between the read of its fds and that of the socket
// table is not yet its holder. A thread's run mark (the CPU time it has used), read before anything
// else of its process and again after the look, says whether it ran in between: any run is counted
// by the time the thread is off the CPU again, and /proc/PID/syscall shows a call only for a thread
// that is off the CPU and off the run queue (the kernel waits until it is; it says "running" otherwise).

// A thread's CPU time in nanoseconds (schedstat's first field); where the kernel keeps no scheduler
// statistics ("0 0 0"), its voluntary and involuntary context switches. null: unreadable.
export function runMarkOf(pid: number, tid: number): number | null {
  const stats = readText(`/proc/${pid}/task/${tid}/schedstat`);
  const ns = stats === null ? Number.NaN : Number(stats.split(' ', 1)[0]);
  if (ns > 0) return ns;
  const status = readText(`/proc/${pid}/task/${tid}/status`) ?? '';
  const voluntary = /^voluntary_ctxt_switches:\s*(\d+)/m.exec(status);
  const involuntary = /^nonvoluntary_ctxt_switches:\s*(\d+)/m.exec(status);
  if (!voluntary || !involuntary) return null;
  // Negative, so that it never equals a mark read from schedstat.
  return -(Number(voluntary[1]) + Number(involuntary[1]) + 1);
}

// True when the thread is off the CPU now (blocked in a call, or stopped) and has not run since its
// mark was read: its call first, then its mark, so that a run in between is always counted.
export function stillSince(pid: number, tid: number, mark: number | null, stopped: boolean): boolean {
  if (mark === null) return false;
  const raw = readText(`/proc/${pid}/task/${tid}/syscall`);
  const call = raw === null || raw === '' ? null : decodeSyscall(raw);
  if (call === null || call === 'running') {
    // A stopped thread outside any call shows "-1 ...": it is off the CPU all the same.
    const stat = readText(`/proc/${pid}/task/${tid}/stat`) ?? '';
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    if (!stopped || (state !== 'T' && state !== 't')) return false;
  }
  return runMarkOf(pid, tid) === mark;
}
