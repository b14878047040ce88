import { ArithmeticError, ExpansionError } from '../expand/env.js';
import { VarError } from '../expand/vars.js';
import type { CaseClause, Compound, Stmt, Word } from '../syntax/nodes.js';
import type { RunnerApi } from './api.js';
import { noteCommand, noteElement } from './bash-command.js';
import { matchesAny } from './case-match.js';
import { evalCond } from './cond.js';
import { runErrTrap } from './err-trap.js';
import { runSubshell } from './exit-trap.js';
import { adoptSubshell, runPendingTraps } from './job-signals.js';
import { assignControl, pass, whileLoop } from './loops.js';
import { recordUnredirected } from './record-step.js';
import { arithForPart, traceArith, traceCase, traceFor, written } from './trace.js';

// A compound command, with its redirections applied for its duration.
export async function runCompound(r: RunnerApi, command: Compound): Promise<number> {
  atRedirects(r, command);
  if (command.kind === 'subshell') return subshell(r, command);
  const record = recordUnredirected(r, command, command.kind, 'compound command');
  let failed = false;
  const status = await r.withRedirects(
    command.redirects,
    () => body(r, command),
    (failure) => {
      failed = true;
      return record(failure);
    },
  );
  // Its failed redirection is a failed command for the ERR trap and errexit, as in bash (a subshell's
  // counts as a simple command's already).
  if (failed) {
    r.sh.status = status;
    await runErrTrap(r, status);
    r.checkErrexit(status);
  }
  return status;
}

// A compound command's own redirection that fails is reported at its line (`done < list` on line 4
// says line 4, as bash says it of a command it has just read).
function atRedirects(r: RunnerApi, command: Compound): void {
  const last = command.redirects.at(-1);
  if (last) r.sh.lineno = last.end.line;
}

async function body(r: RunnerApi, command: Compound): Promise<number> {
  switch (command.kind) {
    case 'brace':
      return r.list(command.stmts);
    case 'if':
      for (const branch of command.branches) {
        if ((await r.exempt(() => r.list(branch.cond))) === 0) return r.list(branch.body);
      }
      return command.otherwise ? r.list(command.otherwise) : 0;
    case 'while':
      return whileLoop(r, command);
    case 'for':
      // Its words are expanded at its own line (bash's $LINENO there).
      r.sh.lineno = command.start.line;
      return forIn(r, command.name, command.items, command.body);
    case 'arith-for':
      return arithFor(r, command);
    case 'case':
      return runCase(r, command);
    case 'arith':
      noteCommand(r, command);
      return arith(r, command.expr);
    case 'cond':
      noteCommand(r, command);
      return cond(r, command);
    default:
      throw new Error(`safe-run: ${command.kind} should have been refused before the run`);
  }
}

// ( list ): a copy of the shell, in no loop (break there says so); exit ends only it; its EXIT trap
// runs when it ends. (As a job's whole body, it is the job's shell: job-signals.ts.)
async function subshell(r: RunnerApi, command: Compound & { kind: 'subshell' }): Promise<number> {
  // Its $LINENO in the shell (an ERR trap's after it fails) is the line it ends on, as bash's.
  noteElement(r, command);
  const sub = r.subshell();
  sub.sh.loopDepth = 0;
  adoptSubshell(r, command, sub);
  return runSubshell(sub, () => {
    const failed = recordUnredirected(r, command, command.kind, 'compound command');
    return sub.withRedirects(
      command.redirects,
      async () => {
        sub.sh.status = await sub.list(command.stmts);
        await runPendingTraps(sub);
        return sub.sh.status;
      },
      failed,
    );
  });
}

async function forIn(
  r: RunnerApi,
  name: string,
  items: Word[] | null,
  stmts: readonly Stmt[],
): Promise<number> {
  let values: string[];
  try {
    values = items === null ? [...r.sh.positional] : await r.ex.fields(items);
  } catch (error) {
    if (error instanceof ExpansionError) return r.expansionFailed(error);
    throw error;
  }
  let status = 0;
  for (const [k, value] of values.entries()) {
    await traceFor(r, name, items);
    try {
      assignControl(r, name, value);
    } catch (error) {
      if (error instanceof ExpansionError) return r.expansionFailed(error);
      if (!(error instanceof VarError)) throw error;
      await r.error(error.message);
      return 1;
    }
    const result = await pass(r, stmts, k + 1);
    status = result.status;
    if (result.stop) break;
  }
  return status;
}

// Its three parts are evaluated at its own line, each time (bash's $LINENO in them).
async function arithFor(r: RunnerApi, command: Extract<Compound, { kind: 'arith-for' }>): Promise<number> {
  const line = command.start.line;
  r.sh.lineno = line;
  try {
    await traceArith(r, arithForPart(r, command.init));
    if (command.init) await r.ex.arith(command.init);
    let status = 0;
    for (let k = 1; ; k++) {
      r.sh.lineno = line;
      await traceArith(r, arithForPart(r, command.cond));
      if (command.cond && (await r.ex.arith(command.cond)) === 0n) return status;
      const result = await pass(r, command.body, k);
      status = result.status;
      if (result.stop) return status;
      r.sh.lineno = line;
      await traceArith(r, arithForPart(r, command.step));
      if (command.step) await r.ex.arith(command.step);
    }
  } catch (error) {
    return arithFailed(r, error);
  }
}

async function runCase(r: RunnerApi, command: CaseClause): Promise<number> {
  let value: string;
  // Its word is expanded at its own line (not its redirection's, on the line of `esac`).
  r.sh.lineno = command.start.line;
  try {
    value = await r.ex.value(command.word);
  } catch (error) {
    if (error instanceof ExpansionError) return r.expansionFailed(error);
    throw error;
  }
  await traceCase(r, command.word);
  let status = 0;
  let fallthrough = false;
  for (const item of command.items) {
    if (!fallthrough && !(await matchesAny(r, value, item.patterns))) continue;
    status = await r.list(item.body);
    if (item.terminator === ';;') return status;
    fallthrough = item.terminator === ';&';
  }
  return status;
}

// (( expr )): 0 when the value is not zero.
async function arith(r: RunnerApi, expr: Word): Promise<number> {
  r.sh.lineno = expr.start.line;
  await traceArith(r, written(r, expr));
  try {
    return (await r.ex.arith(expr)) === 0n ? 1 : 0;
  } catch (error) {
    return arithFailed(r, error);
  }
}

// An error of the arithmetic of (( )) or for (( )) fails the command only (for (( )) not even under
// set -e, as in bash); one of its expansions (or set -u) is the shell's.
async function arithFailed(r: RunnerApi, error: unknown): Promise<number> {
  if (!(error instanceof ExpansionError)) throw error;
  if (!(error instanceof ArithmeticError)) return r.expansionFailed(error);
  await r.error(error.plain ? error.message : `((: ${error.message}`);
  return 1;
}

// [[ ]]: a failing $(( )) in a word is the shell's, as in any command; -eq's own arithmetic is not.
async function cond(r: RunnerApi, command: Extract<Compound, { kind: 'cond' }>): Promise<number> {
  r.sh.lineno = command.start.line;
  try {
    return await evalCond(r, command.expr);
  } catch (error) {
    if (!(error instanceof ExpansionError)) throw error;
    if (error.discard === 'arith' && !(error instanceof ArithmeticError)) return r.expansionFailed(error);
    if (error.discard === 'top' || (!error.discard && error.status !== 2)) return r.expansionFailed(error);
    await r.error(error.message);
    return 2;
  }
}
