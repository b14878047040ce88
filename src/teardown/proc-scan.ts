import { type Marker, markerEntry } from './marker.js';
import {
  listPids,
  matchEnviron,
  type ProcInfo,
  probeStat,
  readStat,
  readText,
  type StatFields,
  withCommand,
} from './proc-read.js';
import type { ProcWindow } from './proc-window.js';

// Task flags from /proc/PID/stat (include/linux/sched.h).
const PF_EXITING = 0x4;
const PF_KTHREAD = 0x200000;

interface FindQuery {
  // Processes whose environment holds NAME=value exactly.
  marker?: Marker;
  // Processes in one of these process groups, marked or not (a stage may clear its environment).
  pgids?: readonly number[];
  // Processes in one of these sessions, marked or not: a stage's children that left its group (a shell
  // with job control, setpgid) but not its session. A stage's session id is its group id.
  sids?: readonly number[];
  exclude?: readonly number[];
  // Where the run's processes can be (forked since it began); absent or null: every process. A
  // marker's own window is used when this is absent.
  window?: ProcWindow | null;
  // Called with each process as soon as it is found, before the scan goes on: a sweep signals a
  // process that forks and exits every millisecond while it is still the one alive, not after a scan
  // of a large /proc has let it hop hundreds of times.
  visit?: (info: ProcInfo) => void;
}

export interface ProcScan {
  // Living processes (zombies left out) that match the query, the scanning process never included.
  found: ProcInfo[];
  // User processes whose environment read empty. Between execve() installing its new memory and the
  // kernel writing the environment into it, a process shows an empty environ; a fork/exec loop's
  // children read empty 11 times in 290 here. One of them may carry the marker a moment later, so a
  // sweep must look again before it concludes that nothing is left. Kernel threads, zombies and
  // exiting processes are not listed.
  unsure: ProcInfo[];
}

// On kernels where a kernel thread's environ opens and reads empty (6.18 here refuses the open with
// ESRCH instead), remembering them saves a stat read per scan. A pid that reads non-empty later has
// been reused by a user process and is forgotten.
const kernelThreads = new Set<number>();

// With only a marker, each process costs one failed or short read of its environ; stat and cmdline
// are read for the matches only.
export function scanProcesses(query: FindQuery): ProcScan {
  const entry = query.marker ? Buffer.from(markerEntry(query.marker)) : null;
  const groups = new Set(query.pgids ?? []);
  const sessions = new Set(query.sids ?? []);
  const byStat = groups.size > 0 || sessions.size > 0;
  const skip = new Set(query.exclude ?? []);
  skip.add(process.pid);
  const scan: ProcScan = { found: [], unsure: [] };
  const window = query.window ?? query.marker?.window ?? null;
  const probed = window?.candidates() ?? null;
  const look = (pid: number): void => {
    if (skip.has(pid)) return;
    let stat: StatFields | null = null;
    if (byStat || window) {
      // Most pids of a window belong to processes gone already.
      stat = probed ? probeStat(pid) : readStat(pid);
      if (!stat) return;
      // Started before the run: none of its processes, whatever its environment says.
      if (window && stat.start < window.startTicks) return;
    }
    if (!stat || !(groups.has(stat.pgid) || sessions.has(stat.sid))) {
      if (!entry) return;
      const environ = matchEnviron(pid, entry);
      if (environ === 'unreadable') return;
      if (environ === 'empty') {
        if (!kernelThreads.has(pid)) noteEmpty(stat ?? readStat(pid), scan, { entry, groups, sessions });
        return;
      }
      kernelThreads.delete(pid);
      if (environ === 'lacks') return;
      stat ??= readStat(pid);
      if (!stat) return;
    }
    if (stat.state === 'Z' || stat.state === 'X') return;
    // A probed pid may be a thread's id (readdir lists only processes): its process is found as itself.
    if (probed && !leadsThreadGroup(pid)) return;
    const info = withCommand(stat);
    scan.found.push(info);
    query.visit?.(info);
  };
  for (const pid of pidsToScan(probed)) look(pid);
  // A process born during the scan has a pid above the window's top when it began: a hopper's child,
  // its parent gone by the time the scan read it, is found there.
  let top = probed?.[0];
  for (let round = 0; probed && round < BORN_DURING_ROUNDS; round++) {
    const born = bornSince(window!, top);
    if (born.length === 0) break;
    for (const pid of born) look(pid);
    top = born[0];
  }
  return scan;
}

// How many times a windowed scan looks again at the pids handed out while it ran.
const BORN_DURING_ROUNDS = 4;

// The window's pids newer than `top` (all of them when the window was empty), newest first.
function bornSince(window: ProcWindow, top: number | undefined): number[] {
  const now = window.candidates();
  if (now === null) return [];
  const at = top === undefined ? now.length : now.indexOf(top);
  return at === -1 ? [] : now.slice(0, at);
}

// Probing one by one costs a failed open per unused pid; past this many, one readdir is cheaper.
const MAX_PROBES = 1024;

// In the window's order (newest first, across a wrap of the pid space: the numbers just handed out may
// be the smallest), which a hopper's live generation needs to be met first.
function pidsToScan(probed: number[] | null): number[] {
  if (probed === null) return listPids();
  if (probed.length <= MAX_PROBES) return probed;
  const existing = new Set(listPids());
  return probed.filter((pid) => existing.has(pid));
}

function leadsThreadGroup(pid: number): boolean {
  const text = readText(`/proc/${pid}/status`);
  return text?.includes(`\nTgid:\t${pid}\n`) ?? false;
}

interface RunIds {
  entry: Buffer;
  groups: ReadonlySet<number>;
  sessions: ReadonlySet<number>;
}

function noteEmpty(stat: StatFields | null, scan: ProcScan, run: RunIds): void {
  if (!stat) return;
  if (stat.flags & PF_KTHREAD) kernelThreads.add(stat.pid);
  else if (
    !(stat.flags & PF_EXITING) &&
    stat.state !== 'Z' &&
    stat.state !== 'X' &&
    !strangersChild(stat, run)
  ) {
    scan.unsure.push(withCommand(stat));
  }
}

// A process caught mid-exec that is its parent's own child, in its parent's session and group, while
// that parent is in none of the run's groups or sessions and reads an environment without the marker:
// the run's processes are in sessions its stages (or their descendants) made, and no process can join
// a session it was not born in, so this one is a stranger's (a pid churn loop elsewhere on the machine
// execs hundreds of times a second, and every sweep would wait for each exec). An orphan adopted by
// init or a subreaper left its parent's session when it was made (setsid), so it still counts.
function strangersChild(stat: StatFields, run: RunIds): boolean {
  if (stat.ppid <= 1) return false;
  const parent = readStat(stat.ppid);
  if (!parent || parent.sid !== stat.sid || parent.pgid !== stat.pgid) return false;
  if (run.groups.has(parent.pgid) || run.sessions.has(parent.sid)) return false;
  return matchEnviron(parent.pid, run.entry) === 'lacks';
}

export function findProcesses(query: FindQuery): ProcInfo[] {
  return scanProcesses(query).found;
}

export function findByMarker(name: string, value: string): ProcInfo[] {
  return findProcesses({ marker: { name, value } });
}
