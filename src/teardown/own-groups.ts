import { type Marker, markerEntry } from './marker.js';
import { matchEnviron, type ProcInfo, probeStat, readProcess, readStat, uptimeTicks } from './proc-read.js';
import { scanProcesses } from './proc-scan.js';
import type { ProcWindow } from './proc-window.js';
import type { RunCgroup } from './run-cgroup.js';
import { assertGroup, sendSignal } from './send-signal.js';

// The process groups of a run's stages, and their sessions, signalled only while they are provably the
// run's own.
//
// A stage is spawned detached, so its group id and its session id are both its leader's pid. The kernel
// hands a number out again only once nothing uses it as a pid, group or session id, so while any member
// of a stage's group or session lives, its id cannot name anyone else. Once both are empty the id is
// free, and after the pid space turns (32,768 pids here; a busy machine does that in seconds) a
// stranger's group can have it: `kill(-id)` would reach the stranger. So before every signal the id is
// checked, and one seen unused is forgotten for good:
// - its leader is there with the start time recorded at spawn (alive, or a zombie not yet reaped):
//   the id is pinned, ours;
// - a process with that pid but another start time: the number was handed out again, which the
//   kernel does only after our group and session emptied: forgotten;
// - nobody in the group or the session: forgotten;
// - members but no leader: ours if no pid can have been handed out twice since the run began (the
//   run's window on ns_last_pid has not seen a turn), if a member carries the run's marker, or if a
//   member started before the leader was reaped (until then the zombie held the number, so no other
//   session could have it; a member alive since then has kept the session from emptying). Otherwise
//   not provably ours, and left alone.
// A process that left the stage's group but not its session (`set -m` in a shell, setpgid) is found by
// its session id (`scanProcesses({ sids })`), even with its environment cleared.
export class OwnGroups {
  private readonly leaders = new Map<number, number>();
  // When each leader was reaped, in process start-time ticks (leaderReaped).
  private readonly reapedAt = new Map<number, number>();
  // Every group id the run had, gone or not: to tell a process that left its stage's group from one
  // that never was in any.
  private readonly ever: number[] = [];
  private readonly listeners: ((pgid: number) => void)[] = [];
  private timer: NodeJS.Timeout | null = null;
  // The run's cgroup, where one could be made (run-cgroup.ts): every process of the run is in it.
  cgroup: RunCgroup | null = null;

  // `window`: the run's window on ns_last_pid (the marker's, unless given).
  constructor(
    private readonly marker: Marker | null,
    private readonly window: ProcWindow | null = marker?.window ?? null,
  ) {}

  // A stage leader just spawned (not yet reaped, so /proc still shows it): its start time is taken
  // now. Returns that start time, or null when it could not be read (no /proc): then the group is
  // trusted while it has members, as before.
  add(pgid: number): number | null {
    assertGroup(pgid);
    const start = readStat(pgid)?.start ?? null;
    this.leaders.set(pgid, start ?? -1);
    this.ever.push(pgid);
    this.watchForGone();
    return start;
  }

  // Called as soon as Node reports the leader's exit (libuv has just reaped it, in the same call): a
  // process of its session that started before this moment was born into the stage's session.
  leaderReaped(pgid: number): void {
    const ticks = uptimeTicks();
    if (ticks !== null && this.leaders.has(pgid)) this.reapedAt.set(pgid, ticks);
  }

  // Told with the group id when it is forgotten (the watchdog must not kill it either).
  onGone(listener: (pgid: number) => void): void {
    this.listeners.push(listener);
  }

  known(): readonly number[] {
    return this.ever;
  }

  // Every group id still provably ours.
  live(): number[] {
    return this.check([...this.leaders.keys()], true);
  }

  // Sends `signal` to the whole group if it is still ours; false when it is not (or is gone).
  signal(pgid: number, signal: NodeJS.Signals | 0): boolean {
    return this.owned(pgid) && sendSignal(-pgid, signal);
  }

  // `prove`: also read the members when the leader is gone (a scan of /proc once the window closed);
  // without it only what is cheap is looked at, and a group is forgotten only when that proves it gone.
  owned(pgid: number, prove = true): boolean {
    return this.check([pgid], prove).length === 1;
  }

  // Looks at every group at once and forgets those seen gone (the watchdog is told): called when the
  // run's stages have all ended, so that the teardown after it has no empty group to look at.
  settle(): void {
    this.check([...this.leaders.keys()], false);
  }

  // The groups of `ids` still ours, in that order. What is cheap comes first for each (the leader's
  // stat, one signal 0 to the group); the groups whose leader is gone and which are empty are kept only
  // while their session has a member, and those sessions are looked for in one scan of the run's
  // window for all of them, not one scan per group (a 32-stage run ended with 32 scans).
  private check(ids: readonly number[], prove: boolean): number[] {
    const ours = new Set<number>();
    const leaderless: number[] = [];
    const empty: number[] = [];
    for (const pgid of ids) {
      const start = this.leaders.get(pgid);
      if (start === undefined) continue;
      const leader = probeStat(pgid);
      if (leader && (start === -1 || leader.start === start)) ours.add(pgid);
      else if (leader) this.forget(pgid);
      else (sendSignal(-pgid, 0) ? leaderless : empty).push(pgid);
    }
    if (empty.length > 0) {
      const members = scanProcesses({ sids: empty, window: this.window }).found;
      const inSession = new Set(members.map((info) => info.sid));
      for (const pgid of empty) {
        if (inSession.has(pgid)) leaderless.push(pgid);
        else this.forget(pgid);
      }
    }
    for (const pgid of leaderless) {
      if (prove && !this.membersProvedOurs(pgid)) this.forget(pgid);
      else ours.add(pgid);
    }
    return ids.filter((pgid) => ours.has(pgid));
  }

  // Starts a stage (a synchronous spawn) inside the run's cgroup when there is one.
  spawn<T>(start: () => T): T {
    return this.cgroup ? this.cgroup.inside(start) : start();
  }

  // The living processes in the run's cgroup: every one the run started, whatever its group, session
  // or environment. A process there is ours by construction: only one that can write to the cgroup's
  // cgroup.procs (the user who made it) can put one there.
  inCgroup(): ProcInfo[] {
    const found: ProcInfo[] = [];
    for (const pid of this.cgroup?.pids() ?? []) {
      const info = readProcess(pid);
      if (info && info.state !== 'Z' && info.state !== 'X') found.push(info);
    }
    return found;
  }

  // Whether anything is alive in the run's cgroup: its list as one read gives it. A fork-and-exit
  // hopper is always there (its child joins before fork returns, its parent leaves at exit), where a
  // scan (inCgroup, /proc) can read a parent that just went and miss the child born after the list.
  cgroupPopulated(): boolean {
    return (this.cgroup?.pids().length ?? 0) > 0;
  }

  // Stops looking at the groups; signals still check them.
  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private membersProvedOurs(pgid: number): boolean {
    if (this.window?.intact() ?? false) return true;
    const reaped = this.reapedAt.get(pgid);
    if (!this.marker && reaped === undefined) return false;
    const members = scanProcesses({ pgids: [pgid], sids: [pgid], window: this.window }).found;
    if (reaped !== undefined && members.some((info) => info.start < reaped)) return true;
    if (!this.marker) return false;
    const entry = Buffer.from(markerEntry(this.marker));
    return members.some((info) => matchEnviron(info.pid, entry) === 'holds');
  }

  private forget(pgid: number): void {
    this.reapedAt.delete(pgid);
    if (!this.leaders.delete(pgid)) return;
    for (const listener of this.listeners) listener(pgid);
    if (this.leaders.size === 0) this.close();
  }

  // Groups are looked at twice a second, so that one that empties is forgotten (and the watchdog told)
  // long before the pid space can turn.
  private watchForGone(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.settle(), 500);
    this.timer.unref();
  }
}
