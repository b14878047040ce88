// What a stopped or hung stage's processes were doing: the report's `stop` and `safe-run inspect`.

export type BlockedOp = 'read' | 'write' | 'wait' | 'poll' | 'sleep' | 'other';

// What a process is blocked on: the operation, the fd (null when none or unknown) and what that is
// ("pipe:[123]", "fifo:[123]", "terminal /dev/pts/3", "file /x", "socket:[9]", "child 51", "unknown").
export interface BlockedOn {
  op: BlockedOp;
  fd: number | null;
  target: string | null;
}

// A process holding the other end of the pipe a process is blocked on.
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
  // From /proc/PID/stat: R running, S sleeping, D uninterruptible, T stopped, Z exited.
  state: string;
  // The kernel function it sleeps in (anon_pipe_write, do_wait...), or null.
  wchan: string | null;
  // null when running or exited.
  blocked: BlockedOn | null;
  // For a pipe or FIFO fd: every holder of its other end; else null.
  peers: PipePeer[] | null;
  explanation: string;
}

// A set of processes that wait only for one another: none can ever go on.
export interface Deadlock {
  pids: number[];
  explanation: string;
}

// Why and when safe-run stopped a stage, the signals it sent (in order), and what the stage's
// processes were doing at that moment.
export interface StageStop {
  reason: string;
  afterMs: number;
  signals: string[];
  snapshot: BlockedProcess[];
  // A deadlock among the run's processes at that moment, or null.
  deadlock: Deadlock | null;
  // Set when every process of the stage was only waiting for input from that (earlier) stage.
  waitingForStage: number | null;
}
