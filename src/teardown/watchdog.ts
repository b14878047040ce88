import type { Marker } from './marker.js';
import { Lease, octalEscaped, type Watchdog } from './watchdog-lease.js';
import { type Guard, spawnGuard } from './watchdog-process.js';

// A stage runs as the same user and can find and kill the watchdog (it is an `sh` in its own session,
// which no unprivileged process can hide); then a SIGKILL of safe-run would leave the stages alive.
// Its death while armed is seen as the child's 'exit' and it is started again with everything it was
// told, at most this many times (a stage that kills it in a loop is told about, not raced for ever).
const MAX_RESTARTS = 10;

type Kind = 'm' | 'g' | 'f' | 'd' | 'c';
// The line that takes back each kind of watch line.
const UNDO: Record<Kind, string> = { m: 'n', g: 'u', f: 'r', d: 'x', c: 'C' };

// A watchdog for one run alone, started now. It lives in its own process group and session so that
// whatever kills safe-run does not kill it too, holds no descriptor but its stdin and stdout, sits in
// / so it keeps no directory busy, and does not keep Node's event loop alive. Without a marker it only
// guards files and the groups it is told about (the CLI's own guard for --output, --report, checkers).
export function startWatchdog(marker: Marker | null): Watchdog {
  return new Warden().lease(marker, { own: true });
}

// One watchdog process shared by the runs of one safe-run process (the steps of a -c text one after
// the other, the CLI's own files): each run leases it with its marker, and gives back what it watched
// at its end. It keeps everything the one on guard was told, so that a fresh one can be told it all
// again; a watch two leases share (a reused group id) is taken back only when both gave it back.
export class Warden {
  readonly problems: string[] = [];
  private readonly watched: Record<Kind, Map<string, number>> = {
    m: new Map(),
    g: new Map(),
    f: new Map(),
    d: new Map(),
    c: new Map(),
  };
  private armed = true;
  private held: string[] = [];
  private restarts = 0;
  private guard: Guard | null;

  constructor() {
    this.guard = this.spawn();
    if (this.guard.pid === null) this.armed = false;
  }

  get pid(): number | null {
    return this.guard?.pid ?? null;
  }

  // Whether a watchdog is on guard and listening (false without /bin/sh, and once closed).
  get active(): boolean {
    return this.armed && this.guard !== null;
  }

  lease(marker: Marker | null, { own = false } = {}): Watchdog {
    return new Lease(this, marker, own);
  }

  watch(kind: Kind, key: string): void {
    const count = this.watched[kind].get(key) ?? 0;
    this.watched[kind].set(key, count + 1);
    if (count === 0) this.send(`${kind} ${key}`);
  }

  // `undo` is the line that takes the watch back (a directory can also be forgotten without removal).
  // `later`: the line may wait for the next one that must go at once (see send).
  unwatch(kind: Kind, key: string, { undo = UNDO[kind], later = false } = {}): void {
    const count = this.watched[kind].get(key);
    if (count === undefined) return;
    if (count > 1) {
      this.watched[kind].set(key, count - 1);
      return;
    }
    this.watched[kind].delete(key);
    this.send(`${undo} ${key}`, later);
  }

  // Sends the lines held back, now.
  flush(): void {
    if (this.held.length === 0) return;
    const lines = this.held.join('\n');
    this.held = [];
    if (this.armed) this.guard?.send(lines);
  }

  // A directory to remove if safe-run dies before forgetDir(): told before it is made.
  claimDir(dir: string): void {
    this.watch('d', octalEscaped(dir));
  }

  // A claimed name that turned out not to be ours: forgotten, nothing removed.
  disownDir(dir: string): void {
    this.unwatch('d', octalEscaped(dir), { undo: 'k' });
  }

  // Asks the watchdog to make dir/p0 .. dir/p(count-1) in a claimed directory; true once they exist,
  // false when there is no watchdog to ask.
  makeFifos(dir: string, count: number): Promise<boolean> {
    if (!this.active) return Promise.resolve(false);
    this.flush();
    return this.guard!.ask(`p ${octalEscaped(dir)} ${count}`);
  }

  // The directory is gone, or is to go once the FIFOs asked for in it are made: the watchdog removes
  // what is left of it (after making them: it reads its lines in order).
  forgetDir(dir: string): void {
    this.unwatch('d', octalEscaped(dir));
  }

  // Has the watchdog move itself into cgroup `dir` (safe-run's own, where it was born): the kernel's
  // wait for the first cgroup move after a pause is then waited by the watchdog, early, not by Node
  // when it steps into a run's cgroup (run-cgroup.ts, cgroupToPrime).
  primeCgroup(dir: string): void {
    if (this.active) this.send(`P ${octalEscaped(dir)}`);
  }

  // Normal end of the process's last run: the watchdog exits without killing anything.
  close(): void {
    this.send('q');
    this.armed = false;
    this.guard?.end();
  }

  // Each line written wakes the sh (and, on a busy machine, hands it the CPU): a line that only takes
  // a watch back (a group seen empty, a cgroup removed) is held until the next line that must go at
  // once, or the end of the run's lease, and goes in the same write. Held back, it can only make a
  // watchdog that sees Node die act on something already over: kill an empty group (whose leader's
  // start time it checks) or remove a directory that is gone. Watch lines, and a file's `r` (which
  // spares a published file), go at once, after whatever was held.
  private send(line: string, later = false): void {
    if (!this.armed) return;
    this.held.push(line);
    if (!later) this.flush();
  }

  // A fresh watchdog, given everything in its arguments (it knows it once it runs, before any line).
  private spawn(): Guard {
    // What was held back is already taken out of `watched`: the fresh one is given the rest.
    this.held = [];
    const known = (['m', 'g', 'f', 'd', 'c'] as const).flatMap((kind) =>
      [...this.watched[kind].keys()].map((key) => `${kind} ${key}`),
    );
    return spawnGuard((dead, how) => this.onDeath(dead, how), known);
  }

  private onDeath(dead: Guard, how: string): void {
    if (!this.armed || dead !== this.guard) return;
    if (this.restarts >= MAX_RESTARTS) {
      this.problems.push(
        `the watchdog (pid ${dead.pid}) ${how} while the run went on, ${MAX_RESTARTS + 1} times: not restarted again; if safe-run is killed now, its stages may outlive it`,
      );
      this.guard = null;
      return;
    }
    this.restarts += 1;
    this.guard = this.spawn();
    this.problems.push(
      `the watchdog (pid ${dead.pid}) ${how} while the run went on (a stage may have killed it); restarted as pid ${this.guard.pid}`,
    );
  }
}

export type { Watchdog } from './watchdog-lease.js';
