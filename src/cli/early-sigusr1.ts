import { readFileSync } from 'node:fs';

// Node 20 opens its debugger (a WebSocket on 127.0.0.1:9229 that runs any code sent to it) when
// SIGUSR1 arrives and no listener is installed. bin/safe-run installs one on its first line, but Node
// spends 40-200 ms starting before that line runs, and a SIGUSR1 then opens the port for the rest of
// the run (measured at 5, 20 and 50 ms after start). Node 20 has no flag to keep the signal from it
// (--disable-sigusr1 came in 22.14), so the port is closed as soon as safe-run can see it, and the
// signal is counted like one that came after the listener: the report is printed once the run can
// give one. Node writes "Debugger listening on ws://..." to stderr first; that line cannot be held back.

// Shared with bin/safe-run (CommonJS, before the bundle loads) through a global symbol.
const KEY = Symbol.for('safe-run.early-sigusr1');

interface EarlySignals {
  received: number;
  // A listener that counts them is installed (bin/safe-run's, or listenForEarlySigusr1's).
  listening: boolean;
}

function shared(): EarlySignals {
  const global = globalThis as unknown as Record<symbol, EarlySignals | undefined>;
  global[KEY] ??= { received: 0, listening: false };
  return global[KEY];
}

function noteSigusr1(): void {
  shared().received += 1;
}

// Counts every SIGUSR1 from now on, for the life of the process (removing the last listener would
// leave the signal to its default action, which ends the process), and closes a debugger an earlier
// one opened. Node starts it twice over (from a V8 interrupt, and again from the event loop if it was
// closed in between), from a thread of its own that a loaded machine may run late: it is looked for
// now, after the first turn of the event loop, and every 100 ms for the life of the process.
export function listenForEarlySigusr1(): void {
  const early = shared();
  if (!early.listening) process.on('SIGUSR1', noteSigusr1);
  early.listening = true;
  void closeEarlyInspector();
  setImmediate(() => void closeEarlyInspector());
  setInterval(() => void closeEarlyInspector(), 100).unref();
}

// Takes the early SIGUSR1s: how many came before now, and none from then on.
export function takeEarlySigusr1(): number {
  const early = shared();
  const count = early.received;
  early.received = 0;
  return count;
}

// The debugger was asked for on Node's command line or in NODE_OPTIONS: not ours to close.
function inspectorWanted(): boolean {
  return [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) => /--inspect/.test(arg));
}

// Node starts a thread for its debugger: a look at the debugger (loading Node's inspector module,
// 2-30 ms here) is taken only when this process has gained threads since the last look (which one
// small read of /proc/self/stat tells). Reading /proc/self/net/tcp instead took 18 ms a read here.
let threadsSeen = 0;
function gainedThreads(): boolean {
  let count = Number.NaN;
  try {
    const stat = readFileSync('/proc/self/stat', 'latin1');
    count = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[17]);
  } catch {
    // No /proc: look every time.
  }
  const gained = !(count <= threadsSeen);
  if (Number.isFinite(count)) threadsSeen = count;
  return gained;
}

// Once loaded, the inspector module is asked at every look: after a close, Node's second start of the
// debugger reuses its thread, so the thread count does not tell (the port stayed open for the rest of
// the run: 3 of 3 here). inspector.url() costs no more than the thread count's read.
type Inspector = typeof import('node:inspector');
let inspectorModule: Inspector | null = null;

// Loaded only when needed (3-8 ms here). process.getBuiltinModule (Node 20.16+) works in every form
// safe-run ships in: the single-file binary cannot import() at all (its first look ended every run
// with ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING).
async function loadInspector(): Promise<Inspector> {
  const builtin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  return (builtin?.('node:inspector') as Inspector | undefined) ?? (await import('node:inspector'));
}

// Closes a debugger that an early SIGUSR1 opened, and counts that signal. Safe to call often.
export async function closeEarlyInspector(): Promise<void> {
  if (inspectorWanted() || (inspectorModule === null && !gainedThreads())) return;
  inspectorModule ??= await loadInspector();
  if (inspectorModule.url() === undefined) return;
  inspectorModule.close();
  noteSigusr1();
}
