import { readStat, readText } from './proc-read.js';

interface SyscallInfo {
  nr: number;
  // Known only for the usual blocking calls on x86_64; null elsewhere.
  name: string | null;
  // Raw hexadecimal arguments; for read/write the first one is the fd.
  args: string[];
}

interface BlockedInfo {
  state: string;
  // Kernel function the process sleeps in (anon_pipe_write, do_wait, ...); null when running.
  wchan: string | null;
  // 'running' when not in a system call; null when /proc would not tell us.
  syscall: SyscallInfo | 'running' | null;
}

const X64_SYSCALLS: Record<number, string> = {
  0: 'read',
  1: 'write',
  7: 'poll',
  19: 'readv',
  20: 'writev',
  23: 'select',
  34: 'pause',
  35: 'nanosleep',
  43: 'accept',
  61: 'wait4',
  202: 'futex',
  230: 'clock_nanosleep',
  232: 'epoll_wait',
  247: 'waitid',
  270: 'pselect6',
  271: 'ppoll',
  281: 'epoll_pwait',
};

// What a stuck process is waiting for, for "why is it stuck" reports; null once it is gone.
export function describeBlocked(pid: number): BlockedInfo | null {
  const stat = readStat(pid);
  if (!stat) return null;
  const wchan = readText(`/proc/${pid}/wchan`)?.trim();
  const raw = readText(`/proc/${pid}/syscall`)?.trim();
  let syscall: BlockedInfo['syscall'] = null;
  if (raw === 'running') syscall = 'running';
  else if (raw && /^\d+ /.test(raw)) {
    const [nr, ...args] = raw.split(' ');
    const number = Number(nr);
    const name = process.arch === 'x64' ? (X64_SYSCALLS[number] ?? null) : null;
    // Six arguments, then the stack and instruction pointers, which nobody reading a report needs.
    syscall = { nr: number, name, args: args.slice(0, 6) };
  }
  return { state: stat.state, wchan: wchan && wchan !== '0' ? wchan : null, syscall };
}
