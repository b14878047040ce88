import { scalarOf } from '../expand/variable.js';
import type { Compound } from '../syntax/nodes.js';
import type { RunnerApi } from './api.js';
import { runCompound } from './compound.js';
import { recordUnredirected } from './record-step.js';
import { enterReturnScope, runReturnTrap } from './return-trap.js';
import { ExitSignal, ReturnSignal } from './signals.js';

// How deep calls may nest when FUNCNEST does not say: bash has no limit of its own and dies of a
// SIGSEGV when its stack runs out (about 8,300 calls of a one-line function under an 8 MiB stack),
// while safe-run's calls live on the heap and would grow it until the machine runs out (a function
// that calls itself by mistake took 1 GB in a minute). Deeper than this, a call fails as one deeper
// than FUNCNEST does.
const NESTING_LIMIT = 10_000;
// A call in subshells nested this deep (a function that pipes into itself, `f() { f | cat; }`, or
// takes its own output, `x=$(f)`) meets the same limit sooner: each level holds a copy of the shell
// and, through a pipe, a process (300 KB and a `cat` a level, 9-17 s for 500 levels at load 8: each
// fork copies a larger safe-run, each sweep reads more processes), where bash forks one more
// process a level until the machine has none left.
const SUBSHELL_CALL_LIMIT = 500;

// Runs function `name` in `r`: its arguments as $1..., its locals in a scope of their own, `return`
// ends it. A loop around the call is not the function's: break and continue in it say so (bash 5.2).
// Without set -E the function starts with no ERR trap: the caller's is back after it, unless the
// function set one of its own, which stays (bash's execute_function). When the shell ends in it,
// the EXIT trap still sees the function in FUNCNAME and its $1..., and after `exit` its locals.
export async function callFunction(r: RunnerApi, name: string, args: string[]): Promise<number> {
  const { sh } = r;
  const def = sh.functions.get(name)!;
  await checkNesting(r, name);
  const saved = sh.positional;
  const loops = sh.loopDepth;
  // After the call, $LINENO (and an ERR trap for its status) is the caller's line again.
  const line = sh.lineno;
  const errTrap = sh.traps.get('ERR');
  const localOptions = sh.localOptions;
  sh.localOptions = null;
  if (!sh.option('errtrace')) sh.traps.delete('ERR');
  sh.positional = args;
  sh.loopDepth = 0;
  sh.funcNames.unshift(name);
  sh.callStack.unshift(name);
  sh.sources.unshift(sh.functionSources.get(name) ?? 'environment');
  sh.sourceLines.unshift(line);
  sh.vars.pushScope();
  const restoreReturnTrap = enterReturnScope(sh);
  let ending: ExitSignal | null = null;
  try {
    const status = await runBody(r, def.body, name);
    await runReturnTrap(r);
    return status;
  } catch (error) {
    if (error instanceof ExitSignal && error.why !== 'stopped' && !error.discard) ending = error;
    if (!(error instanceof ReturnSignal)) throw error;
    return error.status;
  } finally {
    if (ending?.why !== 'exit') sh.vars.popScope();
    if (ending === null) {
      sh.funcNames.shift();
      sh.callStack.shift();
      sh.sources.shift();
      sh.sourceLines.shift();
      sh.positional = saved;
    }
    sh.loopDepth = loops;
    if (ending === null) sh.lineno = line;
    if (ending === null && sh.localOptions) sh.options = new Set(sh.localOptions);
    sh.localOptions = localOptions;
    if (errTrap !== undefined && !sh.traps.has('ERR')) sh.traps.set('ERR', errTrap);
    restoreReturnTrap();
  }
}

// The function's body with its redirections; `return` in it ends it with its status.
async function runBody(r: RunnerApi, body: Compound, name: string): Promise<number> {
  try {
    const failed = recordUnredirected(r, body, name, 'shell function');
    return await r.withRedirects(body.redirects, () => runCompound(r, { ...body, redirects: [] }), failed);
  } catch (error) {
    if (!(error instanceof ReturnSignal)) throw error;
    return error.status;
  }
}

// FUNCNEST (a positive integer) or safe-run's own limit: a call deeper than it prints bash's message
// and drops the rest of the line, status 1, as bash does past FUNCNEST.
async function checkNesting(r: RunnerApi, name: string): Promise<void> {
  const { sh } = r;
  // bash takes it only when it is all a number (a word after it makes it 0: no limit).
  const text = scalarOf(sh.vars.get('FUNCNEST')) ?? '';
  const set = /^\s*[+-]?\d+\s*$/.test(text) ? Number(text) : 0;
  const deepSubshells = set === 0 && sh.subshell >= SUBSHELL_CALL_LIMIT;
  const limit = set > 0 ? set : deepSubshells ? sh.funcNames.length : NESTING_LIMIT;
  if (sh.funcNames.length < limit) return;
  const message = `${name}: maximum function nesting level exceeded (${limit})`;
  const why = deepSubshells
    ? `in subshells nested ${sh.subshell} deep: safe-run's own limit, where bash would fork until no process is left`
    : "safe-run's own limit, where bash would crash";
  await r.error(set > 0 ? message : `${message}: ${why}; set FUNCNEST to change it`);
  throw new ExitSignal(1, 'error', { line: sh.lineno, message }, true);
}
