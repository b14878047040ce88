import { assertMarker, type Marker, markerEntry } from './marker.js';
import { type FifoRequest, type Guard, spawnGuard } from './watchdog-process.js';

export interface Watchdog {
  // null when the watchdog could not be started (no /bin/sh): the run goes on unguarded. After a
  // restart, the pid of the one on guard now.
  readonly pid: number | null;
  // Whether it made the FIFOs it was asked for (false also when it was asked for none, or never started).
  readonly fifosMade: Promise<boolean>;
  watchGroup(pgid: number): void;
  // For a group known to be empty: once no process is left in it, its id may be reused by some
  // unrelated group, which the watchdog must then not kill.
  unwatchGroup(pgid: number): void;
  // A file to remove if safe-run dies before it says otherwise (created after this call returns).
  watchFile(file: string): void;
  // The file was published, removed or kept on purpose: leave it alone.
  forgetFile(file: string): void;
  // Normal end: the watchdog exits without killing anything.
  disarm(): void;
  // What happened to the watchdog itself during the run (killed, restarted), for the report.
  readonly problems: readonly string[];
}

// A stage runs as the same user and can find and kill the watchdog (it is an `sh` in its own session,
// which no unprivileged process can hide); then a SIGKILL of safe-run would leave the stages alive.
// Its death while armed is seen as the child's 'exit' and it is started again with everything it was
// told, at most this many times (a stage that kills it in a loop is told about, not raced for ever).
const MAX_RESTARTS = 10;

// Starts the watchdog for one run. It lives in its own process group and session so that whatever
// kills safe-run does not kill it too, holds no descriptor but its stdin, sits in / so it keeps no
// directory busy, and does not keep Node's event loop alive. Without a marker it only guards files
// and the groups it is told about (the CLI's own guard for --output, --report and checkers).
export function startWatchdog(marker: Marker | null, fifos: FifoRequest | null = null): Watchdog {
  if (marker) assertMarker(marker);
  return new RunWatchdog(marker, fifos);
}

// The Node side of a run's watchdog: it keeps everything the one on guard was told (the marker, the
// groups and files still watched), so that a fresh one can be told it all again.
class RunWatchdog implements Watchdog {
  readonly problems: string[] = [];
  readonly fifosMade: Promise<boolean>;
  private readonly marker: Marker | null;
  private readonly groups = new Set<number>();
  private readonly files = new Set<string>();
  private armed = true;
  private restarts = 0;
  private guard: Guard | null;

  constructor(marker: Marker | null, fifos: FifoRequest | null) {
    this.marker = marker;
    // Only the first one makes the run's FIFOs: a restarted one comes after they were made.
    this.guard = this.spawn(fifos);
    this.fifosMade = this.guard.answer;
    if (this.guard.pid === null) this.armed = false;
  }

  get pid(): number | null {
    return this.guard?.pid ?? null;
  }

  watchGroup(pgid: number): void {
    assertGroupId(pgid);
    this.groups.add(pgid);
    this.send(`g ${pgid}`);
  }

  unwatchGroup(pgid: number): void {
    assertGroupId(pgid);
    this.groups.delete(pgid);
    this.send(`u ${pgid}`);
  }

  watchFile(file: string): void {
    this.files.add(file);
    this.send(`f ${octalEscaped(file)}`);
  }

  forgetFile(file: string): void {
    this.files.delete(file);
    this.send(`r ${octalEscaped(file)}`);
  }

  disarm(): void {
    this.send('q');
    this.armed = false;
    this.guard?.end();
  }

  private send(line: string): void {
    if (this.armed) this.guard?.send(line);
  }

  // A fresh watchdog, told everything, in the order it needs it.
  private spawn(fifos: FifoRequest | null): Guard {
    const guard = spawnGuard((dead, how) => this.onDeath(dead, how), fifos);
    if (this.marker) guard.send(`m ${markerEntry(this.marker)}`);
    for (const pgid of this.groups) guard.send(`g ${pgid}`);
    for (const file of this.files) guard.send(`f ${octalEscaped(file)}`);
    return guard;
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
    this.guard = this.spawn(null);
    this.problems.push(
      `the watchdog (pid ${dead.pid}) ${how} while the run went on (a stage may have killed it); restarted as pid ${this.guard.pid}`,
    );
  }
}

function assertGroupId(pgid: number): void {
  // The watchdog's `kill -9 -1` would reach every process we may signal.
  if (!Number.isInteger(pgid) || pgid <= 1) throw new RangeError(`${pgid} is not a process group id`);
}

// Every byte as \NNN: no space, newline, backslash or % reaches the shell's read or printf as itself.
function octalEscaped(file: string): string {
  return [...Buffer.from(file)].map((byte) => `\\${byte.toString(8).padStart(3, '0')}`).join('');
}
