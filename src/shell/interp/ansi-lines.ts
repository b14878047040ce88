import { isUtf8Locale } from '../expand/oracle-state.js';
import type { Stmt } from '../syntax/nodes.js';
import { walkStmts } from '../syntax/walk.js';
import type { RunnerApi } from './api.js';

// bash decodes a $'...' as it reads the line that holds it, under the locale in force before that
// line runs: `LC_ALL=C; echo $'\u00e9'` on one line prints é in a UTF-8 locale, on two lines \u00E9.
// So do the words of a function defined on the line and of its command substitutions, whenever they
// run. At the start of each line (the statements from `k` to the last that starts where another
// ended), each $'...' of it not read before is marked with the locale's UTF-8-ness. A `...`
// substitution's text is read only when it runs: its own are left to the locale of then.
export function readAnsiLine(r: RunnerApi, stmts: readonly Stmt[], k: number): void {
  const previous = stmts[k - 1];
  if (previous && stmts[k]!.start.line <= previous.end.line) return;
  let last = k;
  while (last + 1 < stmts.length && stmts[last + 1]!.start.line <= stmts[last]!.end.line) last++;
  const { ansiRead } = r.rt;
  let utf8: boolean | null = null;
  const later = new Set<object>();
  walkStmts(stmts.slice(k, last + 1), {
    part: (part) => {
      if (part.kind === 'cmdsubst' && part.backquote)
        walkStmts(part.stmts, { part: (inner) => later.add(inner) });
      if (part.kind !== 'ansi' || ansiRead.has(part) || later.has(part)) return;
      utf8 ??= isUtf8Locale(r.ex.env);
      ansiRead.set(part, utf8);
    },
  });
}
