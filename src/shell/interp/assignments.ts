import { KEPT_ARRAYS } from '../../model/bash-variables.js';
import { ExpansionError } from '../expand/env.js';
import { lastIndex } from '../expand/variable.js';
import type { Assign, Span } from '../syntax/nodes.js';
import type { Bytes } from '../syntax/source.js';
import type { RunnerApi } from './api.js';
import { declaredArray, keepDeclaredArray, type RawElement, takeDeclaredArray } from './declared-arrays.js';
import { traceAssign } from './trace.js';

// NAME=value, NAME+=value, NAME[i]=value and NAME=(...), expanded and assigned left to right, each
// seeing the ones before it, as bash does. `temporary`: a command's prefixes, in the scope the
// caller pushed (exported for the command); otherwise the shell's own variables. `declared`: an
// argument of declare and its kin; `untraced`: not in set -x's trace (a list declare read from a value).
export async function assignInOrder(
  r: RunnerApi,
  assigns: readonly Assign[],
  { temporary = false, declared = false, untraced = false } = {},
): Promise<void> {
  const { sh } = r;
  for (const assign of assigns) {
    if (assign.array && assign.index) {
      // NAME[i]=(...): a command's prefix is said and left out; otherwise the text (or eval) ends.
      const text = `${assign.name}[${r.place.source.slice(assign.index.start.offset, assign.index.end.offset)}]`;
      if (temporary) await r.error(`\`${text}': not a valid identifier`);
      else throw new ExpansionError(`${text}: cannot assign list to array member`, 1, true);
      continue;
    }
    // Expanded before a command's own variable of that name exists (`X=$X cmd`, `PATH=$PATH:x cmd`
    // read the shell's value: they read an empty one before).
    // (A declaration builtin's, expanded with its words, set -x showed with them.)
    const shown = declared && declaredArray(assign) !== undefined;
    const elements = assign.array ? await arrayElements(r, assign, declared) : null;
    const value = !assign.array && assign.value ? await r.ex.value(assign.value, { assignment: true }) : '';
    if (KEPT_ARRAYS.has(assign.name) && !declared) {
      await traceAssign(r, assign, elements ? null : value);
      continue;
    }
    if (temporary) {
      if (!(await temporaryVariable(r, assign))) continue;
    } else if (sh.option('allexport')) sh.vars.target(assign.name).attrs.exported = true;
    if (elements) {
      if (!untraced && !shown) await traceAssign(r, assign, null);
      const kind = isAssoc(r, assign.name) ? 'assoc' : 'indexed';
      for (const left of sh.vars.assignArray(assign.name, elements, assign.append, kind))
        await r.error(`[${left.key}]=${left.value}: bad array subscript`);
      continue;
    }
    await traceAssign(r, assign, value);
    if (assign.index) {
      const index = await subscript(r, assign.name, assign.index, declared);
      sh.vars.assign(assign.name, value, { append: assign.append, index });
    } else sh.vars.assign(assign.name, value, { append: assign.append });
  }
}

// A command's NAME=value: a variable of the command's own scope, exported. NAME+=value starts from the
// visible value (and its attributes); a read-only NAME is said and left as it is (the command runs).
async function temporaryVariable(r: RunnerApi, assign: Assign): Promise<boolean> {
  const { vars } = r.sh;
  // Through a nameref: the variable it names.
  const name = vars.resolve(assign.name);
  const outer = vars.inLocalScope(name) ? undefined : vars.get(name);
  if (outer?.attrs.readonly) {
    await r.error(`${name}: readonly variable`);
    return false;
  }
  const local = vars.declareLocal(name, { exported: true });
  if (assign.append && outer?.value?.kind === 'scalar' && local.value === null) {
    const { readonly: _, exported: __, ...attrs } = outer.attrs;
    Object.assign(local.attrs, attrs);
    local.value = { ...outer.value };
  }
  return true;
}

function isAssoc(r: RunnerApi, name: string): boolean {
  const variable = r.sh.vars.get(name);
  return variable?.attrs.array === 'assoc' || variable?.value?.kind === 'assoc';
}

const writtenText = (r: RunnerApi, node: Span): string =>
  r.place.source.slice(node.start.offset, node.end.offset);

// @ or * written as an indexed array's subscript: no element.
const isAllWritten = (r: RunnerApi, index: Span): boolean => /^[@*]$/.test(writtenText(r, index));

// A subscript: a key for an associative array, arithmetic for an indexed one. One written empty
// (a[]=x), or an empty key, is a bad subscript that discards the rest of the line, as in bash
// (named as written; declare's own arguments are left as they were).
async function subscript(
  r: RunnerApi,
  name: string,
  index: Assign['index'] & object,
  declared: boolean,
): Promise<number | Bytes> {
  const text = await r.ex.value(index, { subscript: true });
  const assoc = isAssoc(r, name);
  if (!declared && (index.parts.length === 0 || (assoc && text === '') || (!assoc && isAllWritten(r, index))))
    throw new ExpansionError(`${name}[${writtenText(r, index)}]: bad array subscript`, 1, true);
  if (assoc) return text;
  const at = r.ex.subscript(text);
  if (at >= 0) return at;
  const resolved = lastIndex(r.sh.vars.get(name)) + 1 + at;
  if (resolved < 0) throw new ExpansionError(`${name}[${text}]: bad array subscript`, 1, true);
  return resolved;
}

// A declaration builtin's NAME=( ... ), expanded with its other words.
export async function expandDeclaredArray(r: RunnerApi, assign: Assign): Promise<void> {
  keepDeclaredArray(assign, await rawElements(r, assign));
}

// The words of NAME=( ... ) expanded, all of them before any subscript is worked out (as bash does:
// `z=([i++]=$i [i++]=$i)` gives both elements i's value before).
async function rawElements(r: RunnerApi, assign: Assign): Promise<RawElement[]> {
  const out: RawElement[] = [];
  for (const element of assign.array!) {
    if (element.index)
      out.push({
        key: await r.ex.value(element.index, { subscript: true }),
        value: await r.ex.value(element.value, { assignment: true }),
        ...(isAllWritten(r, element.index) ? { allWritten: writtenText(r, element) } : {}),
      });
    else for (const value of await r.ex.fields([element.value])) out.push({ key: null, value });
  }
  return out;
}

// The elements of NAME=( ... ): plain words are split and globbed like a command's; [key]=value
// elements are values.
// For an associative array whose first element is a plain word, the words are keys and values in
// turn (m=(k1 v1 k2 v2), a last key without a value gets ""); after a [key]=value element, a plain
// word is said and left out, as bash says it (quoted when declare was given it).
async function arrayElements(
  r: RunnerApi,
  assign: Assign,
  declared: boolean,
): Promise<{ key: Bytes | null; value: Bytes }[]> {
  const raw = takeDeclaredArray(assign) ?? (await rawElements(r, assign));
  const out: { key: Bytes | null; value: Bytes }[] = [];
  const assoc = isAssoc(r, assign.name);
  if (assoc && assign.array!.length > 0 && !assign.array![0]!.index) return keyValuePairs(r, raw);
  for (const { key, value, allWritten } of raw) {
    // ([*]=v) in an indexed array: said, and left out.
    if (key !== null && !assoc && allWritten !== undefined)
      await r.error(`${allWritten}: cannot assign to non-numeric index`);
    else if (key !== null) out.push({ key: assoc ? key : String(r.ex.subscript(key)), value });
    else if (!assoc) out.push({ key: null, value });
    else {
      const shown = declared ? `'${value}'` : value;
      await r.error(`${assign.name}: ${shown}: must use subscript when assigning associative array`);
    }
  }
  return out;
}

async function keyValuePairs(
  r: RunnerApi,
  raw: readonly RawElement[],
): Promise<{ key: Bytes | null; value: Bytes }[]> {
  const words = raw.map(({ key, value }) => (key === null ? value : `[${key}]=${value}`));
  const out: { key: Bytes | null; value: Bytes }[] = [];
  for (let i = 0; i < words.length; i += 2) {
    if (words[i] === '') await r.error(`'': bad array subscript`);
    else out.push({ key: words[i]!, value: words[i + 1] ?? '' });
  }
  return out;
}
