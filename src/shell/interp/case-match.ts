import { type Chunk, isLiteralPattern, literalOf, patternOf } from '../expand/fields.js';
import { inertPattern } from '../expand/oracle.js';
import { oracleState } from '../expand/oracle-state.js';
import type { Word } from '../syntax/nodes.js';
import type { Bytes } from '../syntax/source.js';
import type { RunnerApi } from './api.js';

// Whether `value` matches one of the patterns (case, [[ == ]]), tried in order: plain text compared
// here, the others by bash's own matcher (the oracle), which knows extglob, classes and nocasematch.
// Extended patterns count with extglob on, and always in [[ ]] (as bash 5.2 reads and matches them).
export async function matchesAny(
  r: RunnerApi,
  value: Bytes,
  patterns: readonly Word[],
  inCond = false,
): Promise<boolean> {
  const expanded: Chunk[][] = [];
  for (const word of patterns) expanded.push(await r.ex.pattern(word));
  return matchesExpanded(r, value, expanded, inCond);
}

// The same, with the patterns expanded already ([[ ]] traces them first).
export async function matchesExpanded(
  r: RunnerApi,
  value: Bytes,
  patterns: readonly Chunk[][],
  inCond: boolean,
): Promise<boolean> {
  const texts: string[] = [];
  const extglob = inCond || r.sh.shopts.has('extglob');
  for (const chunks of patterns) {
    if (isLiteralPattern(chunks, extglob) && !r.sh.shopts.has('nocasematch')) {
      if (literalOf(chunks) === value) return true;
      continue;
    }
    texts.push(patternOf(chunks, '', extglob));
  }
  return texts.length > 0 && (await oracleMatch(r, value, texts)) >= 0;
}

// The index of the first pattern that matches, or -1.
async function oracleMatch(r: RunnerApi, value: Bytes, patterns: string[]): Promise<number> {
  for (const pattern of patterns) {
    if (!inertPattern(pattern))
      throw new Error(`safe-run: a pattern for the oracle is not inert: ${pattern}`);
  }
  const [answer] = await r.rt.oracle.ask('match', [value, ...oracleState(r.ex.env), ...patterns]);
  return Number(answer ?? -1);
}
