import type { ParamExp } from '../syntax/nodes.js';
import type { Bytes } from '../syntax/source.js';
import { keyValuePairs } from './declaration.js';
import { ExpansionError } from './env.js';
import type { ExpanderApi } from './expander-api.js';
import { isUtf8Locale } from './oracle-state.js';
import { assignmentForm } from './param-assign-form.js';
import { type Base, shellArray } from './param-lookup.js';
import { attributeLetters, isAllIndex } from './param-text.js';
import { sortedKeys } from './variable.js';

// ${x@Q} and its kin.
// ${!ref@X} transforms the parameter ref names as ${name@X} would.
export async function transform(ex: ExpanderApi, written: ParamExp, base: Base): Promise<Base> {
  const part = base.target ? { ...written, ...base.target, indirect: false } : written;
  const op = part.transform!;
  if (op === 'a') {
    const variable = ex.env.vars.get(part.name);
    const letters = variable ? attributeLetters(variable.attrs, variable.value?.kind ?? null) : '';
    return { ...base, items: base.multi ? base.items.map(() => letters) : [letters] };
  }
  const ask = async (item: Bytes, how: string) =>
    (await ex.env.oracle.ask('transform', [item, how, ...localeOf(ex)]))[0] ?? item;
  if (op === 'A' && part.bad === null) return assignmentForm(ex, part, base, (value) => ask(value, 'Q'));
  if (!base.set) return base;
  if (part.bad !== null) throw new ExpansionError(`${part.bad}: bad substitution`, 127);
  if (op === 'K' || op === 'k') {
    const pairs = keyValueForm(ex, part, base, op);
    if (pairs) return pairs;
  }
  const items: Bytes[] = [];
  for (const item of base.items) items.push(await ask(item, op === 'K' || op === 'k' ? 'Q' : op));
  return { ...base, items };
}

// ${a[@]@K}: one string of subscripts (keys) and quoted values; ${a[@]@k}: the subscripts and values
// as separate words, as "${a[@]}" gives its values. Anything but an array's @ or * is quoted as @Q
// quotes (null here).
function keyValueForm(ex: ExpanderApi, part: ParamExp, base: Base, op: 'K' | 'k'): Base | null {
  if (!isAllIndex(part.index) || part.indirect) return null;
  const value = (shellArray(ex.env, part.name) ?? ex.env.vars.get(part.name))?.value;
  if (!value || value.kind === 'scalar') return null;
  if (op === 'K') return { ...base, items: [keyValuePairs(value, isUtf8Locale(ex.env))], multi: false };
  const items =
    value.kind === 'indexed'
      ? sortedKeys(value.items).flatMap((k) => [String(k), value.items.get(k)!])
      : value.items.entries().flat();
  return { ...base, items, multi: true };
}

function localeOf(ex: ExpanderApi): string[] {
  return ['LC_ALL', 'LC_CTYPE', 'LC_COLLATE', 'LANG'].map((name) => {
    const value = ex.env.vars.get(name)?.value;
    return value?.kind === 'scalar' ? `=${value.value}` : '';
  });
}
