import type { StopFacts } from './stop-cause.js';

// What a stopped or hung stage's processes were doing: the report's `stop` and `safe-run inspect`.

export type BlockedOp = 'read' | 'write' | 'wait' | 'poll' | 'sleep' | 'other';

// What a process (or one of its threads) waits for, as a kind: its sentence and the advice are
// rendered from this (src/hang/wait-words.ts), never the other way round.
const WAIT_KINDS = [
  // Running on a CPU, or reading or writing a pipe whose other side is doing the opposite right now.
  'working',
  'exited',
  'stopped',
  // Waiting for a child process to exit.
  'child',
  // Writing into a pipe or socket whose reader does not read it.
  'unread-output',
  // Writing output that safe-run reads.
  'to-safe-run',
  // Waiting for input on a pipe or socket that another process can write.
  'input',
  // Waiting for input on safe-run's own stdin.
  'safe-run-stdin',
  // Reading a pipe whose only write end it holds itself: end of file never comes.
  'own-pipe',
  // Reading a terminal: stdin that is a terminal, or /dev/tty opened by the program (a password).
  'terminal',
  'terminal-output',
  // Opening a FIFO that nobody has open from the other side.
  'fifo-open',
  // Waiting for a file lock (flock, fcntl) another process holds.
  'lock',
  // An event loop whose only wake-up is a timer (setTimeout/setInterval, asyncio call_later).
  'timer',
  // An event loop that keeps a listening socket open: a server.
  'server',
  // An event loop (epoll, poll, select) on other things.
  'events',
  // A socket or pipe whose other side no process of the tree holds: a server elsewhere, a connection
  // not yet accepted, a holder that could not be read.
  'peer',
  'sleep',
  // futex: another thread of the process, or a lock shared with another process.
  'thread',
  'file',
  // The kernel would not say.
  'unknown',
  'other',
] as const;
export type WaitKind = (typeof WAIT_KINDS)[number];

// How a deadlock can be broken, from the kinds of its waits: the advice is rendered from this.
const DEADLOCK_KINDS = [
  // A process writes into a pipe or socket that the process it waits for never reads.
  'unread-output',
  // A process reads a pipe whose write end the process it waits for never closes (stdin left open).
  'unclosed-input',
  // Processes wait for file locks each other holds.
  'lock',
  // Both sides of a socket wait for the other to say something first.
  'silent-peer',
  // Anything else among parents and children.
  'children',
] as const;
export type DeadlockKind = (typeof DEADLOCK_KINDS)[number];

// What a process is blocked on: the operation, the fd (null when none or unknown) and what that is
// ("pipe:[123]", "fifo:[123]", "terminal /dev/pts/3", "file /x", "socket:[9]", "child 51", "unknown").
export interface BlockedOn {
  op: BlockedOp;
  fd: number | null;
  target: string | null;
  // Bytes written to the other end and not yet read, where the kernel says (sockets); else null.
  unread: number | null;
}

// A process holding the other end of the pipe or socket a process is blocked on (or the lock).
export interface PipePeer {
  pid: number;
  command: string;
  fds: number[];
  // True when it is reading (or waiting to read) this pipe right now.
  reading: boolean;
  // True when the peer is safe-run itself.
  safeRun: boolean;
}

// One process of a hung tree, at a stop or from `safe-run inspect` (docs/debugging-hangs.md).
export interface BlockedProcess {
  pid: number;
  ppid: number;
  // 1-based stage index, or null (an escaped process, or not started by safe-run).
  stage: number | null;
  command: string;
  // safe-run itself or its watchdog (seen by `inspect`), else null.
  role: 'safe-run' | 'watchdog' | null;
  // From /proc/PID/stat: R running, S sleeping, D uninterruptible, T stopped, Z exited.
  state: string;
  // The kernel function it sleeps in (anon_pipe_write, do_wait...), or null.
  wchan: string | null;
  // null when running or exited.
  blocked: BlockedOn | null;
  // For a pipe, FIFO or socket: every holder of its other end; for a lock, its holders; else null.
  peers: PipePeer[] | null;
  // What it waits for, as a kind (the explanation is rendered from it).
  wait: WaitKind;
  // Its threads other than the main one, when it has any (a thread may keep it going).
  threads: ThreadState[] | null;
  explanation: string;
}

// One thread of a process other than its main thread.
export interface ThreadState {
  tid: number;
  name: string;
  state: string;
  blocked: BlockedOn | null;
  wait: WaitKind;
  explanation: string;
}

// A set of processes that wait only for one another: none can ever go on.
export interface Deadlock {
  pids: number[];
  // How it can be broken; the advice is rendered from it.
  kind: DeadlockKind;
  explanation: string;
}

// Why and when safe-run stopped a stage, the signals it sent (in order), and what the stage's
// processes were doing at that moment.
export interface StageStop extends StopFacts {
  // The cause in words, rendered from `cause` and `fifo` (src/outcome-text/).
  reason: string;
  afterMs: number;
  signals: string[];
  snapshot: BlockedProcess[];
  // A deadlock among the run's processes at that moment, or null.
  deadlock: Deadlock | null;
  // Set when every process of the stage was only waiting for input from that (earlier) stage.
  waitingForStage: number | null;
}
