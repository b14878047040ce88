import type { ParamExp } from '../syntax/nodes.js';
import type { Bytes } from '../syntax/source.js';
import { declaration } from './declaration.js';
import type { ExpanderApi } from './expander-api.js';
import { isUtf8Locale } from './oracle-state.js';
import { type Base, shellArray } from './param-lookup.js';
import { attributeLetters, isAllIndex } from './param-text.js';
import { arrayKind } from './variable.js';

// ${x@A}: the assignment (with declare and the attributes, when it has any) that would make the
// parameter again, as bash writes it: NAME='value' for the value ${x} (or ${a[i]}) gives, quoted as
// @Q quotes; ${a[@]@A} is declare -p's line for an array; "$@" is `set -- 'a' 'b'`. Nothing for
// an unset name without attributes, and for a positional or special parameter.
export async function assignmentForm(
  ex: ExpanderApi,
  part: ParamExp,
  base: Base,
  quote: (value: Bytes) => Promise<Bytes>,
): Promise<Base> {
  const none: Base = { items: [], multi: false, star: false, set: false, variable: null };
  const one = (text: Bytes): Base => ({ ...none, items: [text], set: true });
  const { env } = ex;
  if (part.name === '@' || part.name === '*') {
    if (env.positional.length === 0) return none;
    const words = await Promise.all(env.positional.map(quote));
    return one(`set -- ${words.join(' ')}`);
  }
  if (!/^[A-Za-z_]/.test(part.name)) return none;
  let name = part.name;
  try {
    name = env.vars.resolve(part.name);
  } catch {}
  const variable = shellArray(env, name) ?? env.vars.get(name);
  if (!variable) return none;
  const letters = attributeLetters(variable.attrs, variable.value?.kind ?? null);
  const declare = letters === '' ? '' : `declare -${letters} `;
  if (isAllIndex(part.index) && arrayKind(variable) && variable.value) {
    const line = declaration(name, variable, isUtf8Locale(env));
    // (In double quotes, "${a[@]@A}" is three words: declare, its options, the assignment.)
    if (part.index?.parts.length === 1 && base.star) return one(line);
    const [word, options] = line.split(' ', 2);
    return {
      ...none,
      items: [word!, options!, line.slice(word!.length + options!.length + 2)],
      multi: true,
      set: true,
    };
  }
  const value = base.items[0];
  if (value === undefined || !base.set) return letters === '' ? none : one(`declare -${letters} ${name}`);
  return one(`${declare}${name}=${await quote(value)}`);
}
