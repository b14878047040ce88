import os from 'node:os';
import type { RunnerApi } from '../api.js';
import { writeTo } from '../output.js';
import { ExitSignal } from '../signals.js';
import type { BuiltinContext } from './context.js';

const SIGNALS = os.constants.signals as Record<string, number>;

// Signals whose default action leaves a process running (bash's own defaults for them).
// (bash ignores SIGQUIT.)
const HARMLESS = new Set(['CHLD', 'URG', 'WINCH', 'CONT', 'QUIT']);
// Signals whose default action stops a process: the interpreted shell has no way to be stopped.
const STOPPING = new Set(['STOP', 'TSTP', 'TTIN', 'TTOU']);

// A signal the text sends to its own shell ($$, 0, or -$$): safe-run's process is never signalled;
// the signal is delivered to the interpreted shell as bash would take it. Signal 0 (`EXIT` here)
// only asks whether the shell is there; a trapped signal runs its trap; an ignored one does
// nothing; an untrapped fatal one ends the text with 128+n, as bash dies of it.
// From a subshell, $$ is the text's shell, not the subshell: the signal waits for it (takeSignals).
export async function signalShell(ctx: BuiltinContext, signal: string, group = false): Promise<number> {
  const { sh } = ctx;
  if (signal === 'EXIT') return 0;
  if (sh.subshell > 0 && !group) {
    // Waiting for a subshell or a program (not a substitution), bash takes an untrapped SIGINT as
    // the child's, which did not die of it, and goes on: sent by a job, that is bash's answer when it
    // waits for a foreground program (`( sleep 1; kill -INT $$ ) & sleep 5; echo end` prints end),
    // and safe-run gives it also where bash, running builtins at that moment, would die.
    const waited = sh.substBase === null;
    ctx.r.rt.shellSignals.set(signal, !(waited && signal === 'INT'));
    return 0;
  }
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
  return dieOf(ctx.r, signal, (line) => ctx.err(line));
}

// The shell dies of `signal`: safe-run's note of it goes to the run's own stderr even where the text
// sent its stderr elsewhere (`{ kill $$; } 2>&1`: bash, dead, prints nothing there); `tell` writes it
// when that is the shell's stderr (kill's own stderr, kept with its stage, when kill sent it).
async function dieOf(r: RunnerApi, signal: string, tell: (line: string) => Promise<unknown>): Promise<never> {
  const { sh } = r;
  const number = SIGNALS[`SIG${signal}`] ?? 15;
  const line = `${sh.messageName()}: line ${sh.lineno}: the shell was ended by SIG${signal}, which kill sent to it (status ${128 + number})\n`;
  const ref = sh.fds.get(2);
  await (ref.kind === 'run' && ref.fd === 2 ? tell(line) : writeTo(r.rt, { kind: 'run', fd: 2 }, line));
  throw new ExitSignal(128 + number, 'signal');
}

// The text's shell, once the command it waited for has ended, takes the signals its subshells sent
// it, as bash does when they come while it waits: a trapped one runs its trap ($? kept), an
// untrapped fatal one ends the text with 128+n (bash dies of it then, or sooner).
export async function takeSignals(r: RunnerApi): Promise<void> {
  const { sh, rt } = r;
  if (sh.subshell > 0 || rt.shellSignals.size === 0) return;
  const byNumber = ([a]: [string, boolean], [b]: [string, boolean]) =>
    (SIGNALS[`SIG${a}`] ?? 0) - (SIGNALS[`SIG${b}`] ?? 0);
  for (const [signal, fatal] of [...rt.shellSignals].sort(byNumber)) {
    rt.shellSignals.delete(signal);
    const action = sh.traps.get(signal);
    const harmless = !fatal || HARMLESS.has(signal) || STOPPING.has(signal);
    if (action === '' || (action === undefined && harmless)) continue;
    if (action !== undefined) {
      const status = sh.status;
      await r.runText(action, { label: 'trap' });
      sh.status = status;
      continue;
    }
    await dieOf(r, signal, (line) => writeTo(rt, sh.fds.get(2), line));
  }
}
