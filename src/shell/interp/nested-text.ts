import { isRefusal, nestingRefusal, tooDeep } from '../refuse.js';
import type { Script } from '../syntax/nodes.js';
import { parseScript } from '../syntax/parse.js';
import type { Bytes } from '../syntax/source.js';
import { ShellSyntaxError } from '../syntax/syntax-error.js';
import type { RunnerApi } from './api.js';
import { runLines } from './extglob-check.js';
import { runReturnTrap } from './return-trap.js';
import { ExitSignal, ReturnSignal } from './signals.js';
import { checkSupported } from './support.js';

// Text that reaches the shell while it runs (eval's words, a sourced file, a trap's action): parsed
// and checked like the text itself. A syntax error is bash's (status 2, the shell goes on for eval),
// after the complete commands on the lines before it (`before`), which bash has run by then; a
// construct safe-run does not run stops the run, since processes may have started already.
type Parsed = Script | { error: string; refused: boolean; before: Script | null };

function parseNested(text: Bytes, extglob: boolean, firstLine: number): Parsed {
  try {
    return checked(text, extglob, firstLine);
  } catch (thrown) {
    const error = tooDeep(thrown) ? nestingRefusal() : thrown;
    if (error instanceof ShellSyntaxError)
      return { error: error.detail, refused: false, before: completeBefore(text, error, extglob, firstLine) };
    if (isRefusal(error)) return { error: error.detail, refused: true, before: null };
    throw error;
  }
}

function checked(text: Bytes, extglob: boolean, firstLine: number): Script {
  const script = parseScript(text, { bytes: true, extglob, firstLine });
  checkSupported(script, text.includes('\n'));
  return script;
}

// The lines before the one a syntax error is on, as far as they are whole commands.
function completeBefore(
  text: Bytes,
  error: ShellSyntaxError,
  extglob: boolean,
  firstLine: number,
): Script | null {
  let at = error.pos.offset;
  for (;;) {
    const end = text.lastIndexOf('\n', at - 1) + 1;
    if (end <= 0) return null;
    try {
      const script = checked(text.slice(0, end), extglob, firstLine);
      return script.stmts.length > 0 ? script : null;
    } catch (again) {
      if (!(again instanceof ShellSyntaxError)) return null;
      at = Math.min(again.pos.offset, end - 1);
    }
  }
}

// Runs nested text in `r`'s shell (a runner over the same shell with the text as its source).
export async function runNested(
  r: RunnerApi,
  nested: (source: Bytes) => RunnerApi,
  text: Bytes,
  options: { label: string; args?: Bytes[] | null; sourced?: Bytes; firstLine?: number },
): Promise<number> {
  const parsed = parseNested(text, r.sh.shopts.has('extglob'), options.firstLine ?? 1);
  if ('stmts' in parsed) return runParsed(r, nested(text), parsed, options);
  if (parsed.before) await runParsed(r, nested(text), parsed.before, options);
  await r.error(`${options.label}: ${parsed.error}`);
  if (parsed.refused) {
    r.rt.stoppedBy = { kind: 'refused', why: parsed.error };
    throw new ExitSignal(125, 'stopped');
  }
  return 2;
}

async function runParsed(
  r: RunnerApi,
  runner: RunnerApi,
  parsed: Script,
  options: { args?: Bytes[] | null; sourced?: Bytes },
): Promise<number> {
  const { sh } = r;
  const saved = sh.positional;
  // BASH_COMMAND is the eval or source command again after its text (bash's parse_and_execute).
  const command = sh.lastCommand;
  const sets = sh.positionalSets;
  if (options.args) sh.positional = options.args;
  if (options.sourced !== undefined) {
    sh.sourceDepth++;
    sh.callStack.unshift('source');
    sh.sources.unshift(options.sourced);
    sh.sourceLines.unshift(sh.lineno);
  }
  try {
    const status = await sourcedStatus(runner, parsed, options.sourced !== undefined);
    if (options.sourced !== undefined) await runReturnTrap(r);
    return status;
  } finally {
    if (options.sourced !== undefined) {
      sh.sourceDepth--;
      sh.callStack.shift();
      sh.sources.shift();
      sh.sourceLines.shift();
    }
    if (command) sh.lastCommand = command;
    // `source FILE ARGS`: $1... are restored, unless `set` changed them in the file outside a function.
    if (options.args && (sh.funcNames.length > 0 || sh.positionalSets === sets)) sh.positional = saved;
  }
}

// The text's status; in a sourced file, `return` ends it with its status.
async function sourcedStatus(runner: RunnerApi, parsed: Script, sourced: boolean): Promise<number> {
  try {
    return await runLines(runner, parsed.stmts, parsed.warnings);
  } catch (error) {
    if (sourced && error instanceof ReturnSignal) return error.status;
    throw error;
  }
}
