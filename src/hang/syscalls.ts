import type { BlockedOp } from '../types.js';

// What a blocked system call means for a wait-for graph: the operation, and which argument is the fd.
interface CallMeaning {
  name: string;
  op: BlockedOp;
  // The first argument is a file descriptor (read, write, epoll_wait...).
  fdArg: boolean;
}

const read = (name: string): CallMeaning => ({ name, op: 'read', fdArg: true });
const write = (name: string): CallMeaning => ({ name, op: 'write', fdArg: true });
const poll = (name: string, fdArg = false): CallMeaning => ({ name, op: 'poll', fdArg });
const other = (name: string, fdArg = false): CallMeaning => ({ name, op: 'other', fdArg });

// x86_64 numbers (arch/x86/entry/syscalls/syscall_64.tbl): the calls a stuck process is usually in.
const X86_64: Record<number, CallMeaning> = {
  0: read('read'),
  1: write('write'),
  2: other('open'),
  7: poll('poll'),
  17: read('pread64'),
  18: write('pwrite64'),
  19: read('readv'),
  20: write('writev'),
  23: poll('select'),
  34: { name: 'pause', op: 'sleep', fdArg: false },
  35: { name: 'nanosleep', op: 'sleep', fdArg: false },
  40: other('sendfile', true),
  42: other('connect', true),
  43: other('accept', true),
  44: write('sendto'),
  45: read('recvfrom'),
  46: write('sendmsg'),
  47: read('recvmsg'),
  61: { name: 'wait4', op: 'wait', fdArg: false },
  72: other('fcntl', true),
  73: other('flock', true),
  128: other('rt_sigtimedwait'),
  130: { name: 'rt_sigsuspend', op: 'sleep', fdArg: false },
  202: other('futex'),
  230: { name: 'clock_nanosleep', op: 'sleep', fdArg: false },
  232: poll('epoll_wait', true),
  247: { name: 'waitid', op: 'wait', fdArg: false },
  257: other('openat'),
  270: poll('pselect6'),
  271: poll('ppoll'),
  275: other('splice', true),
  281: poll('epoll_pwait', true),
  288: other('accept4', true),
  295: read('preadv'),
  296: write('pwritev'),
  437: other('openat2'),
  441: poll('epoll_pwait2', true),
};

export interface DecodedCall {
  nr: number;
  // null where the number is not in the table (or not x86_64): the op then comes from the wait channel.
  name: string | null;
  op: BlockedOp | null;
  fd: number | null;
  // wait4's pid argument (-1: any child) and epoll_wait's timeout (-1: none), as signed numbers.
  args: number[];
  // The same arguments whole (64 bits): pointers into the process's memory (a path, a poll set).
  words: bigint[];
}

// /proc/PID/syscall: "NR ARG1 ... ARG6 SP PC", hexadecimal; "running" outside a call.
export function decodeSyscall(raw: string, arch: string = process.arch): DecodedCall | 'running' | null {
  const text = raw.trim();
  if (text === 'running') return 'running';
  const parts = text.split(' ');
  const nr = Number(parts[0]);
  if (!Number.isInteger(nr) || nr < 0) return null;
  const args = parts.slice(1, 7).map(toSigned32);
  const words = parts.slice(1, 7).map((hex) => (/^0x[0-9a-f]+$/i.test(hex) ? BigInt(hex) : 0n));
  const meaning = arch === 'x64' ? X86_64[nr] : undefined;
  return {
    nr,
    name: meaning?.name ?? null,
    op: meaning?.op ?? null,
    fd: meaning?.fdArg && Number.isInteger(args[0]) ? args[0]! : null,
    args,
    words,
  };
}

// Arguments that are ints in C (fds, pids, timeouts) arrive sign-extended to 64 bits: keep the low 32.
function toSigned32(hex: string): number {
  if (!/^(0x)?[0-9a-f]+$/i.test(hex)) return Number.NaN;
  return Number(BigInt.asIntN(32, BigInt(hex.startsWith('0x') ? hex : `0x${hex}`)));
}

// Where /proc/PID/syscall cannot be read, the wait channel still says what kind of wait it is.
const BY_WCHAN: [RegExp, BlockedOp][] = [
  [/pipe_write|sk_stream_wait_memory|sock_alloc_send|unix_wait_for_peer/, 'write'],
  [/pipe_read|n_tty_read|unix_stream_data_wait|sk_wait_data|unix_stream_read/, 'read'],
  [/do_wait|kernel_wait|wait_consider/, 'wait'],
  [/ep_poll|do_sys_poll|do_select|poll_schedule/, 'poll'],
  [/nanosleep|do_nanosleep|sigsuspend/, 'sleep'],
  [/wait_for_partner|locks_lock_inode_wait|flock_lock_inode_wait|fcntl_setlk/, 'other'],
];

export function opFromWchan(wchan: string | null): BlockedOp {
  if (!wchan) return 'other';
  return BY_WCHAN.find(([pattern]) => pattern.test(wchan))?.[1] ?? 'other';
}
