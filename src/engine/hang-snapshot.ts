import { describeBlocked, findProcesses } from '../teardown/proc-scan.js';
import type { BlockedProcess } from '../types.js';
import type { StageRun } from './stage-run.js';

// Kernel wait channels, in words. Older kernels say pipe_read/pipe_write.
const WAITS: [RegExp, string][] = [
  [/pipe_write/, 'blocked writing to a full pipe'],
  [/pipe_read/, 'waiting for input on a pipe'],
  [/do_wait|wait_consider/, 'waiting for a child process to exit'],
  [/nanosleep|hrtimer/, 'sleeping'],
  [/poll|select|epoll/, 'waiting for I/O (poll/select)'],
  [/futex/, 'waiting on a lock'],
  [/unix_stream|sk_wait|inet_|tcp_/, 'waiting on a socket'],
  [/wait_woken|n_tty_read/, 'waiting for terminal input'],
];

function fdName(fd: number, run: StageRun, runs: readonly StageRun[]): string {
  const next = runs[run.index];
  const previous = runs[run.index - 2];
  if (fd === 0)
    return previous ? `stdin, the pipe from stage ${previous.index} "${previous.spec.name}"` : 'stdin';
  if (fd === 1)
    return next
      ? `stdout, the pipe to stage ${next.index} "${next.spec.name}"`
      : 'stdout, the pipe to safe-run';
  if (fd === 2) return 'stderr, the pipe to safe-run';
  return `fd ${fd}`;
}

function doing(
  state: string,
  wchan: string | null,
  syscall: string | null,
  fd: number | null,
  run: StageRun,
  runs: readonly StageRun[],
): string {
  if (state === 'R') return 'running on a CPU (busy, not blocked)';
  if (state === 'T' || state === 't') return 'stopped (SIGSTOP or a debugger)';
  if (state === 'D') return `in uninterruptible I/O${wchan ? ` (${wchan})` : ''}`;
  const words = WAITS.find(([pattern]) => wchan && pattern.test(wchan))?.[1];
  const where =
    fd !== null && (syscall === 'read' || syscall === 'write') ? ` on ${fdName(fd, run, runs)}` : '';
  if (words) return `${words}${where}`;
  if (syscall) return `in ${syscall}${where}${wchan ? ` (${wchan})` : ''}`;
  return wchan ? `sleeping in ${wchan}` : `state ${state}`;
}

// What every process of a stage was doing at the moment safe-run stopped it: the answer to "why is
// it stuck?" (who is blocked on what). Linux only; empty where /proc cannot tell.
export function snapshotStage(run: StageRun, runs: readonly StageRun[]): BlockedProcess[] {
  if (run.pid === null) return [];
  const members = findProcesses({ pgids: [run.pid] });
  return members.slice(0, 20).map((info) => {
    const blocked = describeBlocked(info.pid);
    const call = blocked && typeof blocked.syscall === 'object' ? blocked.syscall : null;
    const syscall = call ? (call.name ?? `syscall ${call.nr}`) : null;
    const fd =
      call && (call.name === 'read' || call.name === 'write')
        ? Number.parseInt(call.args[0] ?? '', 16)
        : null;
    const state = blocked?.state ?? info.state;
    const wchan = blocked?.wchan ?? null;
    return {
      pid: info.pid,
      command: info.command,
      state,
      wchan,
      syscall,
      doing: doing(state, wchan, syscall, Number.isNaN(fd) ? null : fd, run, runs),
    };
  });
}
