import type { ParamExp, Word } from '../syntax/nodes.js';
import { parsePromptText } from '../syntax/parse.js';
import type { Bytes } from '../syntax/source.js';
import { ExpansionError } from './env.js';
import type { ExpanderApi } from './expander-api.js';
import { IndexedItems } from './indexed-items.js';
import { isAllIndex, nameOf } from './param-text.js';
import { elementsOf, keysOf, lastIndex, NO_ATTRS, scalarOf, type Variable } from './variable.js';

// What a parameter names, before any operator: its values (several for "$@", "${a[@]}" and the
// like), whether it joins them as $* does, whether it is set, and the variable an assignment
// (${x:=w}) would change (null for special and positional parameters).
export interface Base {
  items: Bytes[];
  multi: boolean;
  star: boolean;
  set: boolean;
  variable: string | null;
  // For ${x:=w} on an element: the subscript the assignment goes to.
  index?: number | Bytes;
  // ${a[@]} of an indexed array: the items' subscripts (a slice counts by them, not by place).
  keys?: number[];
  // A negative subscript that names no element: before an indexed array's first, or any on a
  // scalar or an unset name (bash counts back from the end of arrays only).
  bad?: boolean;
  // ${!ref}: the parameter ref named (its transforms, @A, @a, @K, are of it).
  target?: { name: string; index: Word | null };
}

const single = (value: Bytes | null, variable: string | null = null): Base => ({
  items: value === null ? [] : [value],
  multi: false,
  star: false,
  set: value !== null,
  variable,
});

export async function lookup(ex: ExpanderApi, part: ParamExp): Promise<Base> {
  const { env } = ex;
  if (part.prefixList) {
    const names = env.vars.names().filter((name) => name.startsWith(part.name) && env.vars.get(name)?.value);
    return {
      items: names,
      multi: true,
      star: part.prefixList === '*',
      set: names.length > 0,
      variable: null,
    };
  }
  if (part.keys) {
    const items = keysOf(shellArray(env, part.name) ?? env.vars.get(part.name));
    return { items, multi: true, star: isStar(part.index), set: items.length > 0, variable: null };
  }
  const base = part.indirect ? await indirect(ex, part) : await named(ex, part.name, part.index);
  // Said, and the expansion is empty (the command runs); ${#x[-1]} decides for itself.
  if (base.bad && !part.length) env.warn(`${base.variable}: bad array subscript`);
  return base;
}

function isStar(index: Word | null): boolean {
  const only = index?.parts.length === 1 ? index.parts[0]! : null;
  return only?.kind === 'lit' && only.value === '*';
}

// ${!ref}: the value of `ref` names the parameter to expand (a name, name[subscript], or a special);
// for a nameref, ${!ref} is the name it refers to. ${!@} and ${!*} take $@ as one name. A `ref`
// that is no variable at all is an error whatever the operator, as is an empty name; one declared
// with no value, an array's missing element or an unset positional parameter name nothing.
async function indirect(ex: ExpanderApi, part: ParamExp): Promise<Base> {
  const raw = part.index === null ? ex.env.vars.getRaw(part.name) : undefined;
  if (raw?.attrs.nameref) return single(scalarOf(raw), part.name);
  const base = await named(ex, part.name, part.index);
  if (base.bad) ex.env.warn(`${part.name}: bad array subscript`);
  const all = part.name === '@' || part.name === '*';
  const ref = all ? (base.items.length > 0 ? base.items.join(' ') : undefined) : base.items[0];
  if (ref === '') throw new ExpansionError(': invalid variable name', 1, true);
  if (ref === undefined) {
    if (/^[A-Za-z_]/.test(part.name) && ex.env.vars.get(part.name) === undefined)
      throw new ExpansionError(`${nameOf(part)}: invalid indirect expansion`, 1);
    return single(null);
  }
  const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[(.*)\])?$/s.exec(ref);
  if (match) {
    const index = match[2] === undefined ? null : subscriptWord(match[2]);
    return { ...(await named(ex, match[1]!, index)), target: { name: match[1]!, index } };
  }
  if (/^([0-9]+|[@*#?$!-])$/.test(ref))
    return { ...(await named(ex, ref, null)), target: { name: ref, index: null } };
  throw new ExpansionError(`${ref}: invalid variable name`, 1, true);
}

// test -v NAME[SUB] and [[ -v NAME[SUB] ]]: whether ${NAME[SUB]} is set, SUB expanded again as bash
// does there (so -v 'a[$i]' and -v a[i+1] work); an associative array's @ and * are keys like any
// other, an empty SUB names nothing.
export async function elementIsSet(ex: ExpanderApi, name: string, sub: Bytes): Promise<boolean> {
  const variable = shellArray(ex.env, name) ?? ex.env.vars.get(name);
  if (sub === '') return false;
  if (variable?.value?.kind === 'assoc' && (sub === '@' || sub === '*')) return variable.value.items.has(sub);
  const base = await named(ex, name, subscriptWord(sub));
  if (base.bad) ex.env.warn(`${name}: bad array subscript`);
  return base.set;
}

// A subscript given as text (${!r} with r='a[$i]', a nameref to a[$i]): its $ expansions are made,
// as bash makes them; a command substitution is left as written (safe-run checks only the text's own
// commands).
function subscriptWord(text: Bytes): Word {
  if (!/[$`]/.test(text) || /`|\$\((?!\()|[<>]\(/.test(text)) return literalWord(text);
  return parsePromptText(text) ?? literalWord(text);
}

function literalWord(text: Bytes): Word {
  const pos = { offset: 0, line: 0, col: 0 };
  return { parts: [{ kind: 'lit', value: text, start: pos, end: pos }], start: pos, end: pos };
}

async function named(ex: ExpanderApi, name: string, index: Word | null): Promise<Base> {
  const { env } = ex;
  const positional = env.positional;
  if (name === '@' || name === '*') {
    return {
      items: [...positional],
      multi: true,
      star: name === '*',
      set: positional.length > 0,
      variable: null,
    };
  }
  if (/^[0-9]+$/.test(name)) {
    const n = Number(name);
    return single(n === 0 ? env.arg0 : (positional[n - 1] ?? null));
  }
  const special = specialValue(ex, name);
  if (special !== undefined) return single(special);
  const dynamic = index === null ? env.dynamic(name) : undefined;
  if (dynamic !== undefined) return single(dynamic, name);
  // A nameref to an array's element (declare -n r='a[1]'): that element.
  const ref = index === null ? env.vars.elementRef(name) : null;
  if (ref) return named(ex, ref.name, subscriptWord(ref.subscript));
  const variable = shellArray(env, name) ?? env.vars.get(name);
  if (index === null) return single(scalarOf(variable), name);
  if (isAllIndex(index)) {
    const items = elementsOf(variable);
    const keys = variable?.value?.kind === 'assoc' ? undefined : keysOf(variable).map(Number);
    return { items, multi: true, star: isStar(index), set: items.length > 0, variable: null, keys };
  }
  return element(ex, name, variable, index);
}

// An indexed array's subscript is arithmetic, where single quotes are not quotes (bash: an error):
// they are kept as written, escaped for the quote removal the value still gets.
function arithmeticWord(index: Word): Word {
  if (!index.parts.some((part) => part.kind === 'sq')) return index;
  const escaped = (text: string) => text.replace(/./gs, (c) => `\\${c}`);
  const parts = index.parts.map((part) =>
    part.kind === 'sq' ? { ...part, kind: 'lit' as const, value: escaped(`'${part.value}'`) } : part,
  );
  return { ...index, parts };
}

// The arrays the shell keeps itself: PIPESTATUS (set after every foreground pipeline), DIRSTACK,
// BASH_VERSINFO (read-only), FUNCNAME (declared with no elements outside functions), BASH_SOURCE and
// BASH_LINENO (empty arrays outside functions and sourced files of a -c text).
export function shellArray(env: ExpanderApi['env'], name: string): Variable | undefined {
  const values = shellArrayValues(env, name);
  if (values === undefined) return undefined;
  const items = new IndexedItems(values.map((value, i) => [i, value] as const));
  const attrs = { ...NO_ATTRS, array: 'indexed' as const, readonly: name === 'BASH_VERSINFO' };
  if (name === 'FUNCNAME' && items.size === 0) return { value: null, attrs };
  return { value: { kind: 'indexed', items }, attrs };
}

function shellArrayValues(env: ExpanderApi['env'], name: string): readonly Bytes[] | undefined {
  switch (name) {
    case 'PIPESTATUS':
      return env.pipestatus.map(String);
    case 'DIRSTACK':
      return env.dirStack;
    case 'BASH_VERSINFO':
      return env.bashVersinfo;
    case 'FUNCNAME':
      return env.funcNames;
    case 'BASH_SOURCE':
      return env.sourceStack(false);
    case 'BASH_LINENO':
      return env.sourceStack(true);
    default:
      return undefined;
  }
}

function specialValue(ex: ExpanderApi, name: string): Bytes | null | undefined {
  const { env } = ex;
  switch (name) {
    case '#':
      return String(env.positional.length);
    case '?':
      return String(env.status);
    case '-':
      return env.flags();
    case '$':
      return String(env.pid);
    case '!':
      return env.lastBackground === null ? null : String(env.lastBackground);
    case '_':
      return env.lastArg;
    default:
      return undefined;
  }
}

// ${name[index]}: an indexed array's element by arithmetic (negative counts from the end), an
// associative array's by key.
async function element(
  ex: ExpanderApi,
  name: string,
  variable: Variable | undefined,
  index: Word,
): Promise<Base> {
  const value = variable?.value;
  if (value?.kind === 'assoc' || variable?.attrs.array === 'assoc') {
    const key = await ex.value(index, { subscript: true });
    return { ...single(value?.kind === 'assoc' ? (value.items.get(key) ?? null) : null, name), index: key };
  }
  const written = ex.subscript(await ex.value(arithmeticWord(index), { subscript: true }));
  const at = written < 0 && value?.kind === 'indexed' ? lastIndex(variable) + 1 + written : written;
  // ${x[-1]:=w} assigns as x[-1]=w would, counting back from the end of what x is then.
  if (at < 0) return { ...single(null, name), index: written, bad: true };
  if (!value) return { ...single(null, name), index: at };
  if (value.kind === 'scalar') return { ...single(at === 0 ? value.value : null, name), index: at };
  return { ...single(value.items.get(at) ?? null, name), index: at };
}
