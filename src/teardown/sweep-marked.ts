import { classifyEscape, type SignalledProcess, SWEEP_ROUNDS, unsureTracker } from './kill-tree.js';
import { assertMarker } from './marker.js';
import type { ProcInfo } from './proc-read.js';
import { scanProcesses } from './proc-scan.js';
import type { ProcWindow } from './proc-window.js';
import { identity, sendSignal as send } from './send-signal.js';

const EXEC_PAUSE_MS = 5;
// Made at first use, not when the module loads: V8's snapshot builder has no SharedArrayBuffer.
let pauseCell: Int32Array | null = null;

// sweepMarked stays synchronous so that it can run in an exit path; it waits for an exec this way.
function pauseSync(ms: number): void {
  pauseCell ??= new Int32Array(new SharedArrayBuffer(4));
  Atomics.wait(pauseCell, 0, 0, ms);
}

interface SweepOptions {
  name: string;
  value: string;
  signal: NodeJS.Signals;
  // The stage groups, to tell 'own-group' from escapes.
  groups?: readonly number[];
  // Sessions whose members are signalled too, marked or not (the stage sessions still provably ours).
  sessions?: readonly number[];
  // More processes to signal, marked or not, looked at again each round (the run's cgroup).
  members?: () => readonly ProcInfo[];
  // Leave members of `groups` alone: the caller signals those groups itself, and a second signal
  // a few milliseconds later reads as "force quit" to programs that count Ctrl-Cs.
  spareGroups?: boolean;
  exclude?: readonly number[];
  // The run's window on /proc (Marker.window).
  window?: ProcWindow | null;
}

// Signals every process carrying the marker (or in one of `sessions`), scanning again until a scan
// finds nobody new: processes fork while we sweep, and a single pass (GitHub's runner) misses their
// children. Each is signalled as soon as the scan meets it (see FindQuery.visit).
export function sweepMarked(options: SweepOptions): SignalledProcess[] {
  const marker = { name: options.name, value: options.value };
  assertMarker(marker);
  const seen = new Set<string>();
  const lookAgain = unsureTracker();
  const signalled: SignalledProcess[] = [];
  const spared = new Set(options.groups ?? []);
  const visit = (info: ProcInfo) => {
    if (seen.has(identity(info))) return;
    seen.add(identity(info));
    if (options.spareGroups && spared.has(info.pgid)) return;
    if (send(info.pid, options.signal)) {
      signalled.push({ ...info, how: classifyEscape(info, options.groups ?? []) });
    }
  };
  for (let round = 0; round < SWEEP_ROUNDS; round++) {
    const before = seen.size;
    const { exclude, window, sessions: sids } = options;
    const scan = scanProcesses({ marker, sids, exclude, window, visit });
    for (const info of options.members?.() ?? []) visit(info);
    if (seen.size === before) {
      if (!lookAgain(scan)) break;
      pauseSync(EXEC_PAUSE_MS);
    }
  }
  return signalled;
}
