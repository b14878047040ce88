import type { Script, Stmt } from '../syntax/nodes.js';
import type { RunnerApi } from './api.js';
import { recordSkippedStmt } from './record-step.js';
import { type Ending, ExitSignal } from './signals.js';

// Runs the statement at `k`; returns the index of the last statement it took. An error bash
// discards (failglob's no match, a bad substitution, an arithmetic error) ends the line bash read
// it on: the statements after it there are skipped, the status is the error's, and the text goes on
// with the next line (under set -e, only after an arithmetic error). `discarded`: that error.
// `top`: the statement is one of the shell's own text, not of an eval or a sourced file: an error
// that leaves for bash's top level (TopLevelError) gets there, where a -c text ends.
export async function runLine(
  runner: RunnerApi,
  stmts: readonly Stmt[],
  k: number,
  top = false,
): Promise<{ last: number; discarded: Ending['at'] }> {
  const stmt = stmts[k]!;
  try {
    await runner.list([stmt]);
    return { last: k, discarded: null };
  } catch (error) {
    if (!(error instanceof ExitSignal) || !error.discard) throw error;
    if (error.discard === 'top' && !(top && runner.sh.file)) {
      if (top) throw new ExitSignal(error.status, 'error', error.at);
      throw error;
    }
    if (error.discard === true && runner.sh.option('errexit'))
      throw new ExitSignal(error.status, 'errexit', error.at);
    runner.sh.status = error.status;
    let last = k;
    while (last + 1 < stmts.length && stmts[last + 1]!.start.line <= stmt.end.line) {
      recordSkippedStmt(runner, stmts[++last]!, 'error');
    }
    return { last, discarded: error.at };
  }
}

// bash's parser warnings about the line that starts at statement `k` (the statements up to the next
// line's first), said before it runs, as bash says them while it reads the line; `from`: the first
// not said yet. Returns the next one.
export async function warnLine(
  runner: RunnerApi,
  stmts: readonly Stmt[],
  k: number,
  warnings: Script['warnings'],
  from: number,
): Promise<number> {
  if (!warnings || from >= warnings.length) return from;
  let last = k;
  while (last + 1 < stmts.length && stmts[last + 1]!.start.line <= stmts[last]!.end.line) last++;
  const limit = stmts[last + 1]?.start.offset ?? Number.POSITIVE_INFINITY;
  let next = from;
  const { sh } = runner;
  const line = sh.lineno;
  for (; next < warnings.length && warnings[next]!.offset < limit; next++) {
    sh.lineno = warnings[next]!.line;
    await runner.error(`warning: ${warnings[next]!.text}`);
  }
  sh.lineno = line;
  return next;
}
