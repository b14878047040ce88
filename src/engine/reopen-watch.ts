import fs from 'node:fs';
import { O_ACCMODE, openFlags } from '../teardown/proc-read.js';
import type { PipeId } from './pipeline-pipes.js';
import type { StageRun } from './stage-run.js';

// The links between stages are FIFOs (Node has no pipe(2)), and a FIFO differs from a pipe in one
// way a stage can meet: reopening it by name (`open("/dev/stdin")`, which is /proc/self/fd/0) waits
// in the kernel for the other end when nobody holds it any more, where reopening a pipe returns at
// once. A stage that does so after the stage before it exited would wait for ever. While such a
// stage waits (its wchan says wait_for_partner), the other end of each of the run's links it holds is
// opened and closed again through /proc: the open the stage waits for then returns, and what it
// reads or writes behaves as on a pipe (what is left, then the end; or SIGPIPE).
const { O_RDONLY, O_WRONLY, O_NONBLOCK } = fs.constants;

// How often a reopen waiting on a link is looked for (a stage that does so waits at most this long):
// once a stage is not running (one exited, or never started), when such a wait mostly begins; and
// before (a running stage may have sent its output elsewhere, >/dev/null).
const TICK_MS = 50;
const IDLE_TICK_MS = 500;

// The looking, for one run: slow from the start, quick from the first stage that is not running.
export class ReopenWatch {
  private timer: NodeJS.Timeout | null = null;
  private quick = false;
  private links: readonly PipeId[] = [];

  constructor(private readonly runs: readonly StageRun[]) {}

  start(links: readonly PipeId[]): void {
    this.links = links;
    if (links.length > 0) this.every(this.runs.some((run) => !run.running) ? TICK_MS : IDLE_TICK_MS);
  }

  quicken(): void {
    if (this.timer !== null && !this.quick) this.every(TICK_MS);
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  private every(ms: number): void {
    this.stop();
    this.quick = ms === TICK_MS;
    this.timer = setInterval(() => unblockReopens(this.runs, this.links), ms);
    this.timer.unref();
  }
}

// At most this many processes of a stage's tree are looked at per tick.
const TREE_LIMIT = 512;

// Looks once at the processes of every running stage (the leader and its descendants: `sh -c 'sleep
// 1; cat /dev/stdin'` waits in a child).
function unblockReopens(runs: readonly StageRun[], links: readonly PipeId[]): void {
  for (const run of runs) {
    if (!run.running || run.pid === null) continue;
    for (const pid of treeOf(run.pid)) {
      if (wchanOf(pid) !== 'wait_for_partner') continue;
      // A pid read from /proc may be gone and reused by now: only the run's own links are opened,
      // which nobody outside the run holds (their names were removed as soon as they were opened).
      for (const fd of [0, 1, 2]) poke(pid, fd, links);
    }
  }
}

// The leader and its descendants, through /proc/PID/task/PID/children, breadth first.
function treeOf(leader: number): number[] {
  const tree = [leader];
  for (let i = 0; i < tree.length && tree.length < TREE_LIMIT; i++) {
    tree.push(...childrenOf(tree[i]!));
  }
  return tree.slice(0, TREE_LIMIT);
}

function childrenOf(pid: number): number[] {
  try {
    return fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter((word) => word !== '')
      .map(Number);
  } catch {
    return [];
  }
}

function wchanOf(pid: number): string | null {
  try {
    return fs.readFileSync(`/proc/${pid}/wchan`, 'utf8');
  } catch {
    return null;
  }
}

// Opens the other end of the process's descriptor `fd` when it is one of the run's links (a FIFO the
// user made is left alone: its other end is the user's to open), without waiting, and closes it: a
// writer for a moment where it holds a read end, a reader where it holds a write end (stdout, or
// stderr sent into the link with 2>&1).
function poke(pid: number, fd: number, links: readonly PipeId[]): void {
  const file = `/proc/${pid}/fd/${fd}`;
  try {
    const stat = fs.statSync(file, { bigint: true });
    if (!stat.isFIFO() || !links.some((link) => link.dev === stat.dev && link.ino === stat.ino)) return;
    const flags = openFlags(pid, fd);
    const reading = flags !== null && (flags & O_ACCMODE) === O_RDONLY;
    fs.closeSync(fs.openSync(file, (reading ? O_WRONLY : O_RDONLY) | O_NONBLOCK));
  } catch {
    // the stage exited meanwhile, or nobody holds the end this open needs (ENXIO): nothing waits on it
  }
}
