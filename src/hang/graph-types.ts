import type { BlockedOn, PipePeer, WaitKind } from '../types.js';
import type { HolderIndex } from './holders.js';
import type { LockTable } from './locks.js';
import type { OpenFd, ProcView } from './proc-view.js';
import type { SocketTable } from './sockets.js';

// The data of the wait-for graph: what was read (TreeData) and what one call means (CallAnalysis).

// A process of the tree being explained, with the stage it belongs to (null when none or unknown).
export interface MemberView extends ProcView {
  stage: number | null;
}

// Everything the graph and the sentences need, read once: the tree's processes, the other holders
// of their pipes (safe-run among them), safe-run's own stdin, the sockets and locks in question.
export interface TreeData {
  members: MemberView[];
  context: ProcView[];
  safeRunPid: number | null;
  // "device:inode" of safe-run's fd 0, so a stage reading it is told apart from other pipes.
  safeRunStdin: string | null;
  // The members' sockets, by inode (only read when one is waited on or watched).
  sockets: SocketTable;
  // /proc/locks, by file (only read when a member waits for a lock).
  locks: LockTable;
  // False when some members were not read (a look's time budget ran out): no deadlock is claimed.
  complete: boolean;
  // Set once a second reading has checked the members (src/hang/settle.ts): those found to have run
  // since they were read, or that could not be checked. Any at all and no deadlock is claimed.
  unsettled?: readonly number[];
}

// One fd an event loop or a poll/select watches, as the sentence names it: what it is, and who
// holds its other end (null for a socket whose peer is unknown; empty when no holder was read).
export interface WatchedFd {
  fd: number;
  kind: OpenFd['kind'];
  link: string;
  from: PipePeer[] | null;
  // It is safe-run's own stdin: only safe-run's writer can end it.
  safeRunStdin: boolean;
}

// Facts a sentence needs beyond the kind: the file of a FIFO or a lock, a timer's timeout, a
// server's address, whether a terminal was opened directly (/dev/tty) rather than given as stdin,
// the fds a poll watches.
interface WaitDetail {
  path?: string;
  timeoutMs?: number;
  address?: string;
  direct?: boolean;
  forWriting?: boolean;
  watching?: WatchedFd[];
}

// What one thread's system call means in the wait-for graph.
export interface CallAnalysis {
  tid: number;
  // The thread's name, its system call's name (null when running or unknown) and its wait channel.
  name: string;
  syscall: string | null;
  wchan: string | null;
  blocked: BlockedOn | null;
  // The descriptor it is blocked on, when known.
  open: OpenFd | null;
  peers: PipePeer[] | null;
  // Processes whose action (writing, reading, exiting, unlocking) would let it go on.
  wakers: number[];
  // Something outside the processes can also let it go on: time, a terminal, safe-run, the unknown.
  external: boolean;
  // What the kernel would not say, in words; null when nothing is hidden.
  unknown: string | null;
  wait: WaitKind;
  detail: WaitDetail;
}

export interface CallContext {
  view: MemberView;
  data: TreeData;
  index: HolderIndex;
  children: MemberView[];
}
