import type { Bytes } from '../syntax/source.js';
import { type ExpandEnv, ExpansionError } from './env.js';
import { type Field, fieldText, patternOf } from './fields.js';
import { inertPattern } from './oracle.js';
import { oracleState } from './oracle-state.js';
import { scalarOf } from './variable.js';

// Pathname expansion of one word, by bash itself (the oracle): the names that match, sorted as the
// locale sorts them; none: the word as it is, or nothing under nullglob, or an error under failglob.
export async function globField(field: Field, env: ExpandEnv): Promise<Bytes[]> {
  const pattern = patternOf(field.chunks, '', env.shopt('extglob'));
  if (!inertPattern(pattern)) throw new Error(`safe-run: a pattern for the oracle is not inert: ${pattern}`);
  const ignore = scalarOf(env.vars.get('GLOBIGNORE'));
  const matches = await env.oracle.ask('glob', [
    env.cwd,
    ...oracleState(env),
    ignore === null ? '' : `=${ignore}`,
    pattern,
  ]);
  if (matches.length > 0) return matches;
  if (env.shopt('nullglob')) return [];
  const text = fieldText(field);
  if (env.shopt('failglob')) throw new ExpansionError(`no match: ${text}`, 1, true);
  return [text];
}
