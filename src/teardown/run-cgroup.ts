import fs from 'node:fs';
import path from 'node:path';
import { monotonicMs } from '../monotonic-ms.js';
import { sendSignal } from './send-signal.js';

// A cgroup (v2) of the run's own, where one can be made: every process a stage forks is born in its
// parent's cgroup and stays there whatever it does to its group, session or environment (setsid,
// env -i, a fork-and-setsid "hopper" that makes hundreds of sessions a second), unless it can write to
// another cgroup's cgroup.procs. So the cgroup lists every process of the run, and cgroup.kill
// (Linux 5.14) kills them all at once, also from the watchdog after a SIGKILL of safe-run.
//
// A child made under Node's own cgroup, when that is writable: as root, or in a subtree delegated to
// the user (systemd's user@UID.service). Elsewhere (a read-only /sys/fs/cgroup in a container, a
// session scope owned by root, cgroup v1 only, macOS) there is none, and nothing else changes.
//
// A stage must be born inside: moved there after spawn() returns, it has already run, and measured
// here (kernel 6.18, load 13) a stage that forks at once had its child outside in 40 of 40 starts, the
// move itself taking 5-58 ms (a cgroup migration waits for an RCU grace period). So safe-run moves
// itself in for the synchronous spawn() and back out: nothing else of Node's can start a process in
// that time, and in 40 of 40 starts the child was inside. The cost is that grace period, once per
// run (moves in quick succession: 0.02 ms then; 0.18 ms on 2026-12-03 with libuv's 4 threads, every
// thread moving): 3 stages took 23.5 ms instead of 12.2 ms (medians of 20 at load 12).
//
// That grace period is waited for by the first move after a pause (5-22 ms at load 1 on this kernel,
// measured inside `safe-run -q -- true`), and once one move has waited, others for about one more
// grace period do not: the wait is for the machine, not for the process that moves. So as a run
// begins, the watchdog (a process of its own, single-threaded) is asked to move itself into the
// cgroup it is already in (cgroupToPrime, watchdog line `P`): a move that changes nothing but waits
// the grace period while Node goes on with the run's start, and safe-run's own step comes later,
// cheap. Only the watchdog moves: nothing safe-run itself waits for, nothing that can take safe-run
// out of a cgroup at the wrong moment (a move of safe-run made on libuv's pool could land during
// another run's spawn, or wait behind pool threads held by FIFO opens for ever).
export interface RunCgroup {
  readonly dir: string;
  // Calls `start` (a synchronous spawn) with safe-run inside the cgroup; outside when it cannot enter.
  inside<T>(start: () => T): T;
  // The pids in the cgroup now.
  pids(): number[];
  // SIGKILL to every process in it at once; false when safe-run could not leave it (then nothing is
  // sent, since safe-run would be killed too).
  kill(): boolean;
  // Removes it once the run is over; `keep`: the processes still in it (--leftovers keep) move back
  // to safe-run's own cgroup first. False when it could not be removed (processes are left in it).
  release(keep: boolean): boolean;
}

// Set to "off" (or "0") for no cgroup even where one could be made.
const CGROUP_SETTING = 'SAFE_RUN_CGROUP';

// Who must know of the cgroup before it exists (the watchdog, which kills what is in it if safe-run
// dies), and be told when it was not made after all.
interface CgroupClaim {
  announce(dir: string): void;
  disown(dir: string): void;
}

export function openRunCgroup(name: string, claim: CgroupClaim): RunCgroup | null {
  if (cgroupsOff()) return null;
  const home = ownCgroupDir();
  if (!home) return null;
  const dir = path.join(home, name);
  claim.announce(dir);
  try {
    fs.mkdirSync(dir);
  } catch {
    claim.disown(dir);
    return null;
  }
  return new Cgroup(home, dir);
}

// When safe-run last moved (into a run's cgroup or out).
let lastMove = Number.NEGATIVE_INFINITY;

// A move this soon after the last one is cheap by itself: the steps of a text's loop (6-8 ms apart at
// load 1) need no early move.
const WARM_MS = 20;

// The cgroup the watchdog is to move itself into early (safe-run's own, where the watchdog was
// born), or null: no cgroup here, or safe-run moved a moment ago.
export function cgroupToPrime(): string | null {
  if (monotonicMs() - lastMove < WARM_MS || cgroupsOff()) return null;
  return ownCgroupDir();
}

function cgroupsOff(): boolean {
  const setting = process.env[CGROUP_SETTING];
  return setting === 'off' || setting === '0';
}

class Cgroup implements RunCgroup {
  // Set when safe-run could not move back out: it must never kill the cgroup it is in.
  private stuck = false;
  private usable = true;

  constructor(
    private readonly home: string,
    readonly dir: string,
  ) {}

  inside<T>(start: () => T): T {
    if (!this.usable || !write(path.join(this.dir, 'cgroup.procs'), process.pid)) {
      this.usable = false;
      return start();
    }
    try {
      return start();
    } finally {
      if (!write(path.join(this.home, 'cgroup.procs'), process.pid)) this.stuck = true;
      lastMove = monotonicMs();
    }
  }

  pids(): number[] {
    let text: string;
    try {
      text = fs.readFileSync(path.join(this.dir, 'cgroup.procs'), 'latin1');
    } catch {
      return [];
    }
    return text
      .split('\n')
      .filter((line) => line !== '')
      .map(Number)
      .filter((pid) => pid !== process.pid);
  }

  kill(): boolean {
    if (this.stuck) return false;
    if (write(path.join(this.dir, 'cgroup.kill'), 1)) return true;
    // Before Linux 5.14: one by one (the sweeps that call this repeat until nothing is left).
    for (const pid of this.pids()) sendSignal(pid, 'SIGKILL');
    return true;
  }

  release(keep: boolean): boolean {
    if (this.stuck) return false;
    if (keep) for (const pid of this.pids()) write(path.join(this.home, 'cgroup.procs'), pid);
    try {
      fs.rmdirSync(this.dir);
      return true;
    } catch {
      return false;
    }
  }
}

function write(file: string, value: number): boolean {
  try {
    fs.writeFileSync(file, String(value));
    return true;
  } catch {
    return false;
  }
}

// safe-run's own cgroup v2 directory: its path from /proc/self/cgroup ("0::PATH") under the cgroup2
// mount that shows the whole hierarchy (its root is "/"). Null without one. The path is read for
// every run (something may have moved safe-run meanwhile); the mount, from the longer mountinfo, once.
function ownCgroupDir(): string | null {
  let own: string | undefined;
  try {
    own = /^0::(\/.*)$/m.exec(fs.readFileSync('/proc/self/cgroup', 'utf8'))?.[1];
  } catch {
    return null;
  }
  if (own === undefined || own.includes('(deleted)')) return null;
  cgroupMount ??= { path: findCgroupMount() };
  return cgroupMount.path === null ? null : path.join(cgroupMount.path, own);
}

let cgroupMount: { path: string | null } | null = null;

function findCgroupMount(): string | null {
  let mounts: string;
  try {
    mounts = fs.readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return null;
  }
  for (const line of mounts.split('\n')) {
    const [before, after] = line.split(' - ');
    const fields = before?.split(' ') ?? [];
    if (after?.startsWith('cgroup2 ') && fields[3] === '/' && fields[4]) {
      return fields[4].replace(/\\([0-7]{3})/g, (_, octal) => String.fromCharCode(Number.parseInt(octal, 8)));
    }
  }
  return null;
}
