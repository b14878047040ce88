import type { Script, Stmt } from '../syntax/nodes.js';
import { readAnsiLine } from './ansi-lines.js';
import type { RunnerApi } from './api.js';
import { refuseStep } from './refuse-step.js';
import { runLine, warnLine } from './run-line.js';

// A line of a text (its statements from one that starts a line to the last that starts where another
// ended) that holds an extended pattern was read with extglob on (syntax/extglob-lines.ts). bash reads
// the line only when it is reached: with extglob off then, the line is a syntax error to bash, which
// safe-run does not play out; it refuses the line when it is reached.
export function checkExtglobLine(r: RunnerApi, stmts: readonly Stmt[], k: number): void {
  const previous = stmts[k - 1];
  if (previous && stmts[k]!.start.line <= previous.end.line) return;
  if (r.sh.shopts.has('extglob')) return;
  for (let j = k; j < stmts.length; j++) {
    if (j > k && stmts[j]!.start.line > stmts[j - 1]!.end.line) return;
    if (!stmts[j]!.extglob) continue;
    refuseStep(
      r,
      stmts[k]!,
      `starts a line with an extended pattern (@(...) and the like), read as one because a line before it turns extglob on; it is off when the line is reached, which makes the line a syntax error in bash`,
    );
  }
}

// The statements of a text's own list, line by line as bash reads them (see checkExtglobLine); an
// error bash discards ends its line only (run-line.ts).
export async function runLines(
  r: RunnerApi,
  stmts: readonly Stmt[],
  warnings: Script['warnings'] = [],
): Promise<number> {
  let status = r.sh.status;
  let warned = 0;
  for (let k = 0; k < stmts.length; k++) {
    warned = await warnLine(r, stmts, k, warnings, warned);
    checkExtglobLine(r, stmts, k);
    readAnsiLine(r, stmts, k);
    const line = await runLine(r, stmts, k);
    k = line.last;
    status = r.sh.status;
  }
  return status;
}
