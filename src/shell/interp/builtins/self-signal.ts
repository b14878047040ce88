import os from 'node:os';
import { ExitSignal } from '../signals.js';
import type { BuiltinContext } from './context.js';

const SIGNALS = os.constants.signals as Record<string, number>;

// Signals whose default action leaves a process running (bash's own defaults for them).
const HARMLESS = new Set(['CHLD', 'URG', 'WINCH', 'CONT']);
// Signals whose default action stops a process: the interpreted shell has no way to be stopped.
const STOPPING = new Set(['STOP', 'TSTP', 'TTIN', 'TTOU']);

// A signal the text sends to its own shell ($$, 0, or -$$): safe-run's process is never signalled;
// the signal is delivered to the interpreted shell as bash would take it. Signal 0 (`EXIT` here)
// only asks whether the shell is there; a trapped signal runs its trap; an ignored one does
// nothing; an untrapped fatal one ends the text with 128+n, as bash dies of it.
export async function signalShell(ctx: BuiltinContext, signal: string): Promise<number> {
  const { sh } = ctx;
  if (signal === 'EXIT') return 0;
  const action = sh.traps.get(signal);
  if (action === '') return 0;
  if (action !== undefined) {
    // bash runs the trap once kill has returned: $? in it, and after it, is kill's 0.
    sh.status = 0;
    await ctx.r.runText(action, { label: 'trap' });
    sh.status = 0;
    return 0;
  }
  if (HARMLESS.has(signal)) return 0;
  if (STOPPING.has(signal))
    return ctx.fail(`SIG${signal} to the shell itself: safe-run's interpreter cannot be stopped`);
  const number = SIGNALS[`SIG${signal}`] ?? 15;
  await ctx.err(
    `${sh.messageName()}: line ${sh.lineno}: the shell was ended by SIG${signal}, which kill sent to it (status ${128 + number})\n`,
  );
  throw new ExitSignal(128 + number, 'signal');
}
