import type { ParamExp, Word } from '../syntax/nodes.js';
import type { Bytes } from '../syntax/source.js';
import type { Builder } from './builder.js';
import { ExpansionError } from './env.js';
import type { ExpanderApi, PartContext } from './expander-api.js';
import { isUtf8Locale } from './oracle-state.js';
import { type Base, lookup, shellArray } from './param-lookup.js';
import { patternOps } from './param-patterns.js';
import { charsOf, isAllIndex, nameOf, sliceText } from './param-text.js';
import { transform } from './param-transform.js';
import { lastIndex } from './variable.js';
import { VarError } from './vars.js';

// ${...} and $name: looks the parameter up, applies its operator, and adds the result to the word
// being built (several words for the @ forms in double quotes).
export async function expandParam(
  ex: ExpanderApi,
  part: ParamExp,
  b: Builder,
  ctx: PartContext,
): Promise<void> {
  if (part.bad !== null && part.transform === null)
    throw new ExpansionError(`${part.bad}: bad substitution`, 1, true);
  const base = await lookup(ex, part);
  if (part.length) {
    checkBadLength(ex, part, base);
    checkUnsetLength(ex, part, base);
    return emit(lengthOf(ex, base), b, ctx, ex);
  }
  const op = part.op;
  if (op && WORD_OPS.has(op.op)) return wordOperator(ex, part, base, b, ctx);
  checkUnset(ex, part, base);
  if (op) return emit(await patternOps(ex, base, op.op, op.word, null), b, ctx, ex);
  if (part.replace)
    return emit(await patternOps(ex, base, 'replace', part.replace.pattern, part.replace), b, ctx, ex);
  if (part.slice) return emit(await slice(ex, part, base), b, ctx, ex);
  if (part.transform !== null) return emit(await transform(ex, part, base), b, ctx, ex);
  emit(base, b, ctx, ex);
}

const WORD_OPS = new Set([':-', '-', ':=', '=', ':?', '?', ':+', '+']);

// set -u: a parameter that is not set is an error, but $@ and $* (and arrays with @) are not.
function checkUnset(ex: ExpanderApi, part: ParamExp, base: Base): void {
  if (base.set || !ex.env.nounset || base.multi) return;
  // bash names a positional parameter (and $!) written without braces as written: $1, $!.
  const dollar = part.short && /^[0-9!]$/.test(part.name) ? '$' : '';
  const name = `${part.indirect ? '!' : ''}${dollar}${nameOf(part)}`;
  throw new ExpansionError(`${name}: unbound variable`, 127);
}

// set -u and ${#name}: an unset name is an error (127); ${#a[@]} or ${#a[k]} of an array with no
// value at all too, with status 1 (an element missing from a set array is not), and one bash only
// discards: the rest of the line goes, out of any function, a subshell ends, the text goes on with
// its next line (unless set -e).
function checkUnsetLength(ex: ExpanderApi, part: ParamExp, base: Base): void {
  if (base.set || !ex.env.nounset || part.name === '@' || part.name === '*') return;
  if (part.index) {
    const variable = shellArray(ex.env, part.name) ?? ex.env.vars.get(part.name);
    if (!variable?.value) throw new ExpansionError(`${part.name}: unbound variable`, 1, true);
  } else if (!base.multi) throw new ExpansionError(`${part.name}: unbound variable`, 127);
}

// ${#x[-1]} of a set scalar, or before a set array's first element: bash says the subscript is bad
// and discards the rest of the line, as for a bad substitution (of an unset name it is 0).
function checkBadLength(ex: ExpanderApi, part: ParamExp, base: Base): void {
  if (!base.bad || !base.variable || !ex.env.vars.get(base.variable)?.value) return;
  const written = nameOf(part);
  throw new ExpansionError(`${written.slice(written.indexOf('[') + 1)}: bad array subscript`, 1, true);
}

function lengthOf(ex: ExpanderApi, base: Base): Base {
  const value = base.multi
    ? String(base.items.length)
    : String(charsOf(base.items[0] ?? '', isUtf8Locale(ex.env)).length);
  return { items: [value], multi: false, star: false, set: true, variable: null };
}

// Adds values to the word: one value as an expansion; the @ forms as separate words in quotes and
// unquoted; the * forms joined by IFS's first character in quotes and where one value is made.
function emit(base: Base, b: Builder, ctx: PartContext, ex: ExpanderApi): void {
  const { quoted } = ctx;
  if (!base.multi) {
    b.add(base.items[0] ?? '', quoted, !quoted);
    return;
  }
  const ifs = ex.ifs();
  const first = ifs === null ? ' ' : (charsOf(ifs, isUtf8Locale(ex.env))[0] ?? '');
  if ((quoted || ctx.single) && base.star) {
    b.add(base.items.join(first), true, false);
    return;
  }
  // Unquoted, bash joins the values by IFS's first character and splits the whole: where that is not
  // white space, `a:` and `b` with IFS=: give a, '' and b, and two empty values one empty word.
  if (!quoted && !ctx.single && /^[^ \t\n\x80-\xff]$/.test(first)) b.add(base.items.join(first), false, true);
  else b.addValues(base.items, quoted, !quoted);
}

// ${x-w} ${x:-w} ${x=w} ${x?w} ${x+w} and their colon forms (which also treat empty as unset).
async function wordOperator(
  ex: ExpanderApi,
  part: ParamExp,
  base: Base,
  b: Builder,
  ctx: PartContext,
): Promise<void> {
  const { op, word } = part.op!;
  const joined = base.items.join(base.multi ? joiner(base, ctx, ex) : '');
  const present = op.startsWith(':') ? base.set && joined !== '' : base.set;
  const kind = op.replace(':', '');
  if (kind === '+') {
    if (present) return addWord(ex, word, b, ctx);
    // Nothing in its place: in double quotes an empty word, unless the @ form had no values at all.
    if (ctx.quoted && base.items.length > 0) b.keep();
    return;
  }
  if (present) return emit(base, b, ctx, ex);
  if (kind === '-') return addWord(ex, word, b, ctx);
  const value = await ex.value(word);
  if (kind === '?') {
    const message =
      value !== '' ? value : op.startsWith(':') ? 'parameter null or not set' : 'parameter not set';
    throw new ExpansionError(`${part.indirect ? '!' : ''}${nameOf(part)}: ${message}`, 127);
  }
  if (base.variable === null) throw cannotAssign(part);
  try {
    const index = base.bad ? countedBack(ex, part, base) : base.index;
    ex.env.vars.assign(base.variable, value, index === undefined ? {} : { index });
  } catch (error) {
    if (error instanceof VarError) throw new ExpansionError(error.message, 1);
    throw error;
  }
  const assigned = await lookup(ex, { ...part, op: null });
  emit(assigned, b, ctx, ex);
}

// ${x[-1]:=w} where x[-1] named nothing: x[-1]=w, counted back from the end of x as it is (a scalar
// is one element); before the first, a bad subscript that discards the rest of the line.
function countedBack(ex: ExpanderApi, part: ParamExp, base: Base): number {
  const at = lastIndex(ex.env.vars.get(base.variable!)) + 1 + (base.index as number);
  if (at < 0) throw new ExpansionError(`${nameOf(part)}: bad array subscript`, 1, true);
  return at;
}

// ${a[@]:=w} is a bad subscript to bash, ${@:=w} and ${1:=w} no name to assign.
function cannotAssign(part: ParamExp): ExpansionError {
  if (part.index && isAllIndex(part.index) && !part.indirect)
    return new ExpansionError(`${nameOf(part)}: bad array subscript`, 1);
  return new ExpansionError(`$${part.name}: cannot assign in this way`, 1);
}

// How ${x:-w} and its kin join several values to see whether they are null: "$*" and "${a[*]}" as
// they expand (by IFS's first character), the others by spaces.
function joiner(base: Base, ctx: PartContext, ex: ExpanderApi): string {
  if (!base.star || !(ctx.quoted || ctx.single)) return ' ';
  const ifs = ex.ifs();
  return ifs === null ? ' ' : (charsOf(ifs, isUtf8Locale(ex.env))[0] ?? '');
}

// The operator's word, read as it would be in place: in double quotes when the expansion is, else
// unquoted text that IFS splits too. In double quotes the word stays even when empty, as bash keeps
// it: "${a[@]:-}" of an empty array is one empty word (only the @ form's own values can be none).
async function addWord(ex: ExpanderApi, word: Word, b: Builder, ctx: PartContext): Promise<void> {
  const fields = await ex.build(word.parts, {
    style: ctx.quoted ? 'dq' : 'operand',
    quoted: ctx.quoted,
    tilde: 'start',
  });
  b.addFields(fields);
  if (ctx.quoted) b.keep();
}

// ${x:offset:length}, and for "$@" and arrays the elements from offset on.
async function slice(ex: ExpanderApi, part: ParamExp, base: Base): Promise<Base> {
  const { offset, length } = part.slice!;
  // (Not evaluated for a parameter that is not set, but for $@ and $*; an error is said after its name.)
  if (!base.set && part.name !== '@' && part.name !== '*') return base;
  const from = Number(await sliceArith(ex, part, offset));
  const count = length === null ? null : Number(await sliceArith(ex, part, length));
  // (${x[@]:1} of a scalar slices its value, as ${x:1} does.)
  const scalar = base.multi && isAllIndex(part.index) && !part.indirect && isScalar(ex, part.name);
  if (!base.multi || scalar) {
    const text = base.items[0];
    if (text === undefined) return base;
    const sliced = sliceText(text, from, count, isUtf8Locale(ex.env));
    if (sliced === 'negative') throw new ExpansionError(`${count}: substring expression < 0`, 1, 'arith');
    return { ...base, items: [sliced] };
  }
  if (count !== null && count < 0) throw new ExpansionError(`${count}: substring expression < 0`, 1, 'arith');
  if (base.keys) {
    // An indexed array: the items from the subscript `from` on (negative: from the end of the
    // subscripts), `count` of them.
    const keys = base.keys;
    const start = from < 0 ? (keys.at(-1) ?? -1) + 1 + from : from;
    if (start < 0) return { ...base, items: [] };
    const items = base.items.filter((_, i) => keys[i]! >= start);
    return { ...base, items: items.slice(0, count === null ? undefined : count) };
  }
  let items = base.items;
  let start = from;
  if (part.name === '@' || part.name === '*') {
    items = [ex.env.arg0, ...items];
    if (from < 0) start = items.length + from;
  } else if (from < 0) start = items.length + from;
  if (start < 0) return { ...base, items: [] };
  if (count !== null && count < 0) throw new ExpansionError(`${count}: substring expression < 0`, 1, 'arith');
  return { ...base, items: items.slice(start, count === null ? undefined : start + count) };
}

function isScalar(ex: ExpanderApi, name: string): boolean {
  return (shellArray(ex.env, name) ?? ex.env.vars.get(name))?.value?.kind === 'scalar';
}

async function sliceArith(ex: ExpanderApi, part: ParamExp, word: Word): Promise<bigint> {
  try {
    return await ex.arithExpansion(word);
  } catch (error) {
    if (!(error instanceof ExpansionError)) throw error;
    throw new ExpansionError(`${nameOf(part)}: ${error.message}`, error.status, error.discard);
  }
}
