import type { WaitKind } from '../types.js';
import { analyzeCall } from './analyze-call.js';
import type { CallAnalysis, MemberView, TreeData } from './graph-types.js';
import { type HolderIndex, threadsOf } from './holders.js';
import type { ProcView } from './proc-view.js';

export type { MemberView, TreeData };

// safe-run itself and its watchdog, when they are part of a tree being inspected.
type Role = 'safe-run' | 'watchdog' | null;

// One process: what each of its threads does, and what that means for the whole process. A process
// goes on when any of its threads can: one that runs, or drains a pipe, or sleeps for a while. A
// thread in futex waits for another thread of its own (a join, a lock) and is left out, unless every
// thread is in one (then a lock shared with another process may be what it waits for: unknown).
export interface Analysis {
  view: MemberView;
  role: Role;
  // The main thread's call and the other threads' calls.
  main: CallAnalysis;
  threads: CallAnalysis[];
  // The call that says what the process waits for: the main thread's, unless it only waits for
  // another thread (then that thread's).
  lead: CallAnalysis;
  wait: WaitKind;
  // The union over its threads: any one of these acting lets it go on.
  wakers: number[];
  external: boolean;
}

export function analyzeProcess(view: MemberView, data: TreeData, index: HolderIndex): Analysis {
  const children = data.members.filter((other) => other.ppid === view.pid && other.pid !== view.pid);
  const ctx = { view, data, index, children };
  const [main, ...threads] = threadsOf(view).map((thread) => analyzeCall(thread, ctx));
  const role = roleOf(view, data);
  const all = [main!, ...threads];
  const busy = all.find((call) => call.wait === 'working');
  if (view.state === 'Z' || view.state === 'X' || busy || role !== null) {
    const lead = view.state === 'Z' || view.state === 'X' ? main! : (busy ?? main!);
    return { view, role, main: main!, threads, lead, wait: lead.wait, wakers: [], external: true };
  }
  const active = all.filter((call) => call.wait !== 'thread');
  const acting = active.length > 0 ? active : [main!];
  const lead = main!.wait !== 'thread' ? main! : acting[0]!;
  const wakers = [...new Set(acting.flatMap((call) => call.wakers))];
  const external = acting.some((call) => call.external || call.blocked === null);
  return { view, role, main: main!, threads, lead, wait: lead.wait, wakers, external };
}

// The watchdog runs as "safe-run-watchdog" (its argv[0]); safe-run is its parent, or a process whose
// program is safe-run (bin/safe-run under node, or the single-file binary).
function roleOf(view: ProcView, data: TreeData): Role {
  if (view.command.startsWith('safe-run-watchdog ')) return 'watchdog';
  if (view.pid === data.safeRunPid) return 'safe-run';
  const words = view.command.split(' ', 2);
  const program = /(^|\/)safe-run$/;
  if (program.test(words[0] ?? '') || (/(^|\/)node$/.test(words[0] ?? '') && program.test(words[1] ?? '')))
    return 'safe-run';
  const watchdog = data.members.some(
    (m) => m.ppid === view.pid && m.command.startsWith('safe-run-watchdog '),
  );
  return watchdog ? 'safe-run' : null;
}
