import fs from 'node:fs';
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

// At most this many processes of a stage's tree are looked at per tick.
const TREE_LIMIT = 64;

// Looks once at the processes of every running stage (the leader and its descendants: `sh -c 'sleep
// 1; cat /dev/stdin'` waits in a child); returns how many waits it ended.
export function unblockReopens(runs: readonly StageRun[], links: readonly PipeId[]): number {
  let ended = 0;
  for (const run of runs) {
    if (!run.running || run.pid === null) continue;
    for (const pid of treeOf(run.pid)) {
      if (wchanOf(pid) !== 'wait_for_partner') continue;
      // Its stdin is a link's read end: a writer for a moment. Its stdout a write end: a reader.
      // A pid read from /proc may be gone and reused by now: only the run's own links are opened,
      // which nobody outside the run holds (their names were removed as soon as they were opened).
      if (poke(pid, 0, O_WRONLY, links)) ended += 1;
      if (poke(pid, 1, O_RDONLY, links)) ended += 1;
    }
  }
  return ended;
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

// Opens the other end of the stage's descriptor `fd` when it is one of the run's links (a FIFO the
// user made is left alone: its other end is the user's to open), without waiting, and closes it.
function poke(pid: number, fd: number, mode: number, links: readonly PipeId[]): boolean {
  const file = `/proc/${pid}/fd/${fd}`;
  try {
    const stat = fs.statSync(file, { bigint: true });
    if (!stat.isFIFO() || !links.some((link) => link.dev === stat.dev && link.ino === stat.ino)) return false;
    fs.closeSync(fs.openSync(file, mode | O_NONBLOCK));
    return true;
  } catch {
    // the stage exited meanwhile, or nobody holds the end this open needs (ENXIO): nothing waits on it
    return false;
  }
}
