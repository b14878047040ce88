import { namesVariable } from '../expand/variable.js';
import { VarError } from '../expand/vars.js';
import type { Compound, Stmt } from '../syntax/nodes.js';
import type { Bytes } from '../syntax/source.js';
import type { RunnerApi } from './api.js';
import { lastNameref, lastNamerefName } from './builtins/declare-nameref.js';
import { BreakSignal, ContinueSignal } from './signals.js';

// One pass of a loop body, with break and continue handled: 'break' to leave the loop.
export async function pass(
  r: RunnerApi,
  stmts: readonly Stmt[],
  k: number,
): Promise<{ status: number; stop: boolean }> {
  r.sh.iterations.push(k);
  r.sh.loopDepth++;
  try {
    return { status: await r.list(stmts), stop: false };
  } catch (error) {
    if (error instanceof BreakSignal) {
      if (error.levels > 1) throw new BreakSignal(error.levels - 1);
      return { status: 0, stop: true };
    }
    if (error instanceof ContinueSignal) {
      if (error.levels > 1) throw new ContinueSignal(error.levels - 1);
      return { status: 0, stop: false };
    }
    throw error;
  } finally {
    r.sh.loopDepth--;
    r.sh.iterations.pop();
  }
}

type Test = 'go' | 'done' | 'break' | 'continue';

// while/until LIST; do BODY; done. Its condition is inside the loop, as in bash: break there leaves
// it (status 0 for while; for until the last pass's), continue starts the next pass under while
// and leaves the loop under until (whose condition then counts as true); break 2 and continue 2
// go on to the loop around it.
export async function whileLoop(
  r: RunnerApi,
  command: Extract<Compound, { kind: 'while' }>,
): Promise<number> {
  let status = 0;
  for (let k = 1; ; k++) {
    const test = await condition(r, command);
    if (test === 'done') return status;
    if (test === 'break' || (test === 'continue' && command.until)) return command.until ? status : 0;
    if (test === 'continue') {
      status = 0;
      continue;
    }
    const result = await pass(r, command.body, k);
    status = result.status;
    if (result.stop) return status;
  }
}

async function condition(r: RunnerApi, command: Extract<Compound, { kind: 'while' }>): Promise<Test> {
  r.sh.loopDepth++;
  try {
    const status = await r.exempt(() => r.list(command.cond));
    return (command.until ? status !== 0 : status === 0) ? 'go' : 'done';
  } catch (error) {
    if (error instanceof BreakSignal) {
      if (error.levels > 1) throw new BreakSignal(error.levels - 1);
      return 'break';
    }
    if (error instanceof ContinueSignal) {
      if (error.levels > 1) throw new ContinueSignal(error.levels - 1);
      return 'continue';
    }
    throw error;
  } finally {
    r.sh.loopDepth--;
  }
}

// for NAME in WORDS: NAME gets each word; a NAME that is a nameref (the last of a chain of them) is
// pointed at each word in turn instead, as bash's for does (a word must name a variable).
export function assignControl(r: RunnerApi, name: string, value: Bytes): void {
  const last = lastNamerefName(r.sh.vars, name);
  const variable = lastNameref(r.sh.vars, name);
  if (last === undefined || !variable) {
    r.sh.vars.assign(name, value);
    return;
  }
  if (!namesVariable(value, true)) throw new VarError(`\`${value}': not a valid identifier`);
  if (variable.attrs.readonly) throw new VarError(`${last}: readonly variable`);
  if (value === last) throw new VarError(`${last}: nameref variable self references not allowed`);
  variable.value = { kind: 'scalar', value };
}
