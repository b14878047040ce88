import { keptText } from '../../../capture/escape-bytes.js';
import { targetText } from '../../../outcome-text/render.js';
import type { StreamReport, StreamTarget } from '../../../types.js';
import { ExpansionError, TopLevelError } from '../../expand/env.js';
import { VarError } from '../../expand/vars.js';
import type { Assign, SimpleCommand } from '../../syntax/nodes.js';
import { type Bytes, fromBytes } from '../../syntax/source.js';
import type { RunnerApi } from '../api.js';
import { keptOutput } from '../builtin-secrets.js';
import { runExternal } from '../external.js';
import { recordStep } from '../record-step.js';
import { applyRedirects } from '../redirect.js';
import type { RedirectFailure } from '../redirect-failure.js';
import { refuseStep } from '../refuse-step.js';
import { ExitSignal } from '../signals.js';
import { BuiltinContext, BuiltinRefused } from './context.js';
import { BUILTINS } from './registry.js';

const KEPT = 4096;

// A builtin runs in the shell itself, its redirections applied for its duration; its output is
// counted for the report. Its step is recorded however it ends (exit and return included).
export async function runBuiltin(
  r: RunnerApi,
  command: SimpleCommand,
  args: Bytes[],
  decl: (Assign | null)[] | null,
): Promise<number> {
  const name = args[0]!;
  if (name === 'exec') return exec(r, command, args);
  const ctx = new BuiltinContext(r, name, args.slice(1), decl);
  let status = 1;
  let failure: RedirectFailure | null = null;
  let noStep = false;
  let called = false;
  const cwd = r.sh.cwd;
  try {
    status = await r.withRedirects(
      command.redirects,
      () => {
        called = true;
        return call(ctx, name);
      },
      (failed) => {
        failure = failed;
      },
    );
    return status;
  } catch (error) {
    if (error instanceof BuiltinRefused) {
      noStep = true;
      refuseStep(r, command, error.message);
    }
    // A stop while its redirections were expanded: it never ran, and has no step.
    if (!called && error instanceof ExitSignal && error.why === 'stopped') noStep = true;
    status = (error as { status?: number }).status ?? status;
    throw error;
  } finally {
    if (!noStep)
      await recordStep(r, command, {
        status,
        stages: [],
        // (A wait for input the time limit or a signal ended: its stage was stopped.)
        failure: failure ?? (ctx.halted ? { kind: 'stopped', stop: ctx.halted, reading: true } : null),
        cwd,
        builtin: 'shell builtin',
        argv: args.map(fromBytes),
        stdout: keptOutput(r.rt, streamOf(ctx.written.out, ctx.elsewhere.out)),
        stderr: keptOutput(r.rt, streamOf(ctx.written.err, ctx.elsewhere.err)),
      });
  }
}

async function call(ctx: BuiltinContext, name: string): Promise<number> {
  try {
    return await BUILTINS.get(name)!(ctx);
  } catch (error) {
    if (error instanceof VarError) return ctx.fail(error.message);
    // (An integer variable's value: "declare: 1/0: division by 0 ...".)
    if (error instanceof TopLevelError && error.named)
      return ctx.r.expansionFailed(new TopLevelError(`${name}: ${error.message}`));
    // (set -u in let's or declare's arithmetic: the shell ends, as on any expansion.)
    if (error instanceof ExpansionError) return ctx.r.expansionFailed(error);
    throw error;
  }
}

// What the report keeps of a builtin's stream: the text that reached the run's own (its last 4 KiB),
// or, when none did, where it went (a pipe is the next stage's input, as for a program's stream).
function streamOf(text: Bytes, elsewhere: StreamTarget | null): StreamReport {
  if (text === '' && elsewhere !== null) {
    const piped = elsewhere.kind === 'pipe';
    const to = piped ? {} : { to: targetText(elsewhere), target: elsewhere };
    return {
      bytes: null,
      truncated: false,
      omittedBytes: 0,
      text: piped ? null : '',
      binary: false,
      logFile: null,
      ...to,
    };
  }
  // Kept as a program's stream is: bytes that are not UTF-8 as \xHH, or none when they are data.
  const shown = keptText(Buffer.from(text.length > KEPT ? text.slice(-KEPT) : text, 'latin1'));
  return {
    bytes: text.length,
    truncated: text.length > KEPT,
    omittedBytes: Math.max(0, text.length - KEPT),
    text: shown?.text ?? null,
    binary: shown === null,
    ...(shown && shown.escaped > 0 ? { escapedBytes: shown.escaped } : {}),
    logFile: null,
  };
}

// exec with no command: its redirections become the shell's own. exec COMMAND: the program runs, and
// the shell ends with its status (bash is replaced by it).
async function exec(r: RunnerApi, command: SimpleCommand, args: Bytes[]): Promise<number> {
  const words = args.slice(1);
  if (words[0] === '--') words.shift();
  if (words.length === 0) {
    const applied = await applyRedirects(r, command.redirects, r.sh.fds.copy());
    const failure = applied.failed;
    if (failure) applied.fds.release();
    else {
      const old = r.sh.fds;
      r.sh.fds = applied.fds;
      old.release();
    }
    // Its step, failed or not: a redirection that failed (or was stopped waiting for a FIFO) is the
    // step's, as a builtin's is, so the report names it.
    const status = failure ? 1 : 0;
    await recordStep(r, command, {
      status,
      stages: [],
      failure,
      builtin: 'shell builtin',
      argv: args.map(fromBytes),
    });
    return status;
  }
  // bash's traps end with it when the program replaces it (none runs, EXIT's neither); '' ones are
  // inherited. A program not found leaves the shell as it was, to exit with 127 (its EXIT trap runs).
  const traps = new Map(r.sh.traps);
  for (const [signal, action] of traps) if (action !== '') r.sh.traps.delete(signal);
  const status = await runExternal(r, command, words, {
    exec: true,
    found: (found) => {
      if (!found) for (const [signal, action] of traps) r.sh.traps.set(signal, action);
    },
  });
  throw new ExitSignal(status);
}
