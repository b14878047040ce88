import { assertMarker, type Marker, markerEntry } from './marker.js';

// What one run (or the CLI's own files) has the watchdog watch: the run's view of it.
export interface Watchdog {
  // null when the watchdog could not be started (no /bin/sh): the run goes on unguarded. After a
  // restart, the pid of the one on guard now.
  readonly pid: number | null;
  // `start`: the leader's start time (/proc/PGID/stat), checked again before the watchdog kills the
  // group; null when unknown.
  watchGroup(pgid: number, start: number | null): void;
  // For a group known to be empty: once no process is left in it, its id may be reused by some
  // unrelated group, which the watchdog must then not kill. `gone`: seen empty, so the line may wait
  // for the next one that must go at once (watchdog.ts, send); otherwise the group is spared at once.
  unwatchGroup(pgid: number, options?: { gone?: boolean }): void;
  // A file to remove if safe-run dies before it says otherwise (created after this call returns).
  watchFile(file: string): void;
  // The file was published, removed or kept on purpose: leave it alone.
  forgetFile(file: string): void;
  // The run's cgroup (run-cgroup.ts): everything in it is killed if safe-run dies. Told before it is
  // made; forgotten once removed, or not made.
  watchCgroup(dir: string): void;
  forgetCgroup(dir: string): void;
  // Normal end: the watchdog forgets this run's marker, groups and files; one that served only this
  // run exits without killing anything.
  disarm(): void;
  // What happened to the watchdog itself while this run had it (killed, restarted), for the report.
  readonly problems: readonly string[];
}

// What a lease needs of the warden that holds the one watchdog process (watchdog.ts).
interface LeaseHost {
  readonly pid: number | null;
  readonly problems: readonly string[];
  watch(kind: 'm' | 'g' | 'f' | 'c', key: string): void;
  // `later`: the line may wait for the next one that must go at once (watchdog.ts, send).
  unwatch(kind: 'm' | 'g' | 'f' | 'c', key: string, options?: { later?: boolean }): void;
  flush(): void;
  close(): void;
}

// One run's share of a warden: what it watches, given back by disarm().
export class Lease implements Watchdog {
  // Each watched group id, with the key the watchdog knows it by (PGID:START).
  private readonly groups = new Map<number, string>();
  // The files (f) and cgroups (c) watched, by path.
  private readonly paths = { f: new Set<string>(), c: new Set<string>() };
  private readonly entry: string | null;
  private readonly firstProblem: number;
  private done = false;

  constructor(
    private readonly warden: LeaseHost,
    marker: Marker | null,
    private readonly own: boolean,
  ) {
    if (marker) assertMarker(marker);
    this.entry = marker ? markerEntry(marker) : null;
    if (this.entry) warden.watch('m', this.entry);
    this.firstProblem = warden.problems.length;
  }

  get pid(): number | null {
    return this.warden.pid;
  }

  get problems(): readonly string[] {
    return this.warden.problems.slice(this.firstProblem);
  }

  watchGroup(pgid: number, start: number | null): void {
    assertGroupId(pgid);
    if (this.done || this.groups.has(pgid)) return;
    const key = `${pgid}:${start ?? '-'}`;
    this.groups.set(pgid, key);
    this.warden.watch('g', key);
  }

  unwatchGroup(pgid: number, { gone = false } = {}): void {
    assertGroupId(pgid);
    const key = this.groups.get(pgid);
    if (key === undefined) return;
    this.groups.delete(pgid);
    this.warden.unwatch('g', key, { later: gone });
  }

  watchFile(file: string): void {
    this.watchPath('f', file);
  }

  forgetFile(file: string): void {
    this.forgetPath('f', file);
  }

  watchCgroup(dir: string): void {
    this.watchPath('c', dir);
  }

  forgetCgroup(dir: string): void {
    this.forgetPath('c', dir);
  }

  private watchPath(kind: 'f' | 'c', file: string): void {
    if (this.done || this.paths[kind].has(file)) return;
    this.paths[kind].add(file);
    this.warden.watch(kind, octalEscaped(file));
  }

  // A file's `r` goes at once (held back, a watchdog that saw Node die would remove a published file);
  // a cgroup's `C` may wait (it is removed already).
  private forgetPath(kind: 'f' | 'c', file: string): void {
    if (this.paths[kind].delete(file)) this.warden.unwatch(kind, octalEscaped(file), { later: kind === 'c' });
  }

  disarm(): void {
    if (this.done) return;
    this.done = true;
    if (this.own) {
      this.warden.close();
      return;
    }
    // Everything this run gave back, in one write.
    for (const key of this.groups.values()) this.warden.unwatch('g', key, { later: true });
    for (const kind of ['f', 'c'] as const) {
      for (const file of this.paths[kind]) this.warden.unwatch(kind, octalEscaped(file), { later: true });
      this.paths[kind].clear();
    }
    if (this.entry) this.warden.unwatch('m', this.entry, { later: true });
    this.groups.clear();
    this.warden.flush();
  }
}

function assertGroupId(pgid: number): void {
  // The watchdog's `kill -9 -1` would reach every process we may signal.
  if (!Number.isInteger(pgid) || pgid <= 1) throw new RangeError(`${pgid} is not a process group id`);
}

// A path as the watchdog's line protocol carries it: every byte outside a small safe set as \NNN, so
// no space, newline, backslash, % or glob character reaches the shell's read or printf as itself. The
// safe bytes travel as themselves: the sh reads its lines a byte per system call, and a path of
// safe-run's own (/tmp/safe-run-pipes-..., a cgroup directory) is then a quarter as long, and needs
// no printf (which dash runs in a forked subshell) to be decoded.
export function octalEscaped(file: string): string {
  let out = '';
  for (const byte of Buffer.from(file)) {
    out += SAFE_BYTE[byte] ? String.fromCharCode(byte) : `\\${byte.toString(8).padStart(3, '0')}`;
  }
  return out;
}

// A-Z a-z 0-9 and / . _ - + , : = @
const SAFE_BYTE = Array.from({ length: 256 }, (_, byte) =>
  /^[A-Za-z0-9/._+,:=@-]$/.test(String.fromCharCode(byte)),
);
