import { AssocTable } from '../../expand/assoc-table.js';
import { ExpansionError } from '../../expand/env.js';
import { IndexedItems } from '../../expand/indexed-items.js';
import { type Attrs, arrayKind, cloneVariable, type Variable } from '../../expand/variable.js';
import { VarError } from '../../expand/vars.js';
import type { Assign } from '../../syntax/nodes.js';
import type { Bytes } from '../../syntax/source.js';
import { subscriptOf } from '../assign-named.js';
import { assignInOrder } from '../assignments.js';
import type { BuiltinContext } from './context.js';
import { type Parsed, parse, type Written, writtenAs } from './declare-args.js';
import { declareFunctions } from './declare-functions.js';
import { printAll } from './declare-list.js';
import { checkNamerefTarget, checkNamerefWord, lastNameref } from './declare-nameref.js';
import { quotedList } from './quoted-list.js';

// An assignment to a read-only variable: bash says so without the builtin's name.
class ReadonlyValue extends VarError {}

const LETTERS: Record<string, keyof Attrs | 'array' | 'assoc'> = {
  a: 'array',
  A: 'assoc',
  i: 'integer',
  l: 'lower',
  u: 'upper',
  r: 'readonly',
  x: 'exported',
  n: 'nameref',
};

// declare, typeset, local, readonly and export: one parser of options and NAME[=value] arguments,
// the attributes set or taken back, the assignment made (as an assignment, never split or globbed).
export async function declareLike(ctx: BuiltinContext): Promise<number> {
  const { sh } = ctx;
  const parsed = parse(ctx);
  if (parsed instanceof Promise) return parsed;
  if (ctx.name === 'local' && sh.funcNames.length === 0) return ctx.fail('can only be used in a function');
  if (parsed.on.has('f') || parsed.on.has('F') || parsed.off.has('f'))
    return declareFunctions(ctx, new Set([...parsed.on, ...parsed.off]), parsed.names);
  if (parsed.on.has('p') || parsed.names.length === 0)
    return printAll(
      ctx,
      parsed.on,
      parsed.names.map((n) => n.text),
    );
  const local =
    ctx.name === 'local' ||
    (sh.funcNames.length > 0 && ctx.name !== 'export' && ctx.name !== 'readonly' && !parsed.on.has('g'));
  let status = 0;
  for (const { text, assign } of parsed.names) {
    // local -: the function's return puts back the set options of now (bash: local only).
    if (text === '-' && assign === null && ctx.name === 'local') {
      sh.localOptions = new Set(sh.options);
      continue;
    }
    const one = await declareName(ctx, text, assign, parsed, local);
    if (one !== 0) status = one;
  }
  return status;
}

// One NAME[=value] argument; its status. readonly and export take no subscript, and -a or -A only
// with a value (then as declare -g does); they give their attribute even when the value fails.
async function declareName(
  ctx: BuiltinContext,
  text: Bytes,
  assign: Assign | null,
  parsed: Parsed,
  local: boolean,
): Promise<number> {
  const written = writtenAs(text, assign);
  const global = ctx.name === 'readonly' || ctx.name === 'export';
  if (!written || (global && (written.value?.index != null || written.element)))
    return ctx.fail(
      `\`${written?.value ? `${written.name}[${written.value.index}]` : text}': not a valid identifier`,
    );
  // (Nor a nameref to an array's element: said, with status 0.)
  const ref = global && !written.array && !written.value ? ctx.sh.vars.elementRef(written.name) : null;
  if (ref) return ctx.fail(`\`${ref.name}[${ref.subscript}]': not a valid identifier`, 0);
  const letters =
    global && !written.array && !written.value
      ? { ...parsed, on: new Set([...parsed.on].filter((c) => c !== 'a' && c !== 'A')) }
      : written.element && !parsed.on.has('A') && !isAssoc(ctx, written.name)
        ? { ...parsed, on: new Set([...parsed.on, 'a']) }
        : parsed;
  try {
    await declareOne(ctx, written, letters, local);
    return 0;
  } catch (error) {
    if (!(error instanceof VarError)) throw error;
    if (global) applyLetter(ctx.sh.vars.target(written.name).attrs, ctx.name === 'export' ? 'x' : 'r', true);
    if (!(error instanceof ReadonlyValue)) return ctx.fail(error.message);
    await ctx.r.error(error.message);
    return 1;
  }
}

function isAssoc(ctx: BuiltinContext, name: string): boolean {
  const variable = ctx.sh.vars.get(name);
  return variable?.attrs.array === 'assoc' || variable?.value?.kind === 'assoc';
}

async function declareOne(
  ctx: BuiltinContext,
  written: Written,
  parsed: Parsed,
  local: boolean,
): Promise<void> {
  const { sh } = ctx;
  const { name } = written;
  // A read-only variable keeps its value and stays read-only (its other attributes may change); a
  // local may not hide one.
  if (local && !sh.vars.inLocalScope(name) && sh.vars.get(name)?.attrs.readonly)
    throw new VarError(`${name}: readonly variable`);
  // -n works on the name itself, not on what a nameref it already is leads to; +n on what it leads
  // to, then turns the chain's last nameref into a plain variable (keeping its value).
  const itself = parsed.on.has('n');
  if (itself) await checkNamerefWord(ctx, name, written.value);
  const refOff = !itself && parsed.off.has('n') ? lastNameref(sh.vars, name) : undefined;
  // local -I: a new local starts as a copy of the variable it hides (not as a nameref).
  const inherited =
    local && parsed.on.has('I') && !sh.vars.inLocalScope(name) ? sh.vars.getRaw(name) : undefined;
  // A new local hiding an exported variable is exported too, as bash makes it.
  const hidesExported = local && !sh.vars.inLocalScope(name) && sh.vars.getRaw(name)?.attrs.exported === true;
  const variable = local
    ? sh.vars.declareLocal(name, hidesExported ? { exported: true } : {})
    : ((itself ? sh.vars.getRaw(name) : undefined) ?? sh.vars.target(name));
  if (inherited) {
    variable.value = cloneVariable(inherited).value;
    variable.attrs = { ...inherited.attrs, nameref: false };
  }
  const assigns = written.array !== null || written.value !== null;
  if (itself && variable.value !== null) checkNamerefTarget(variable, name, assigns);
  await checkArrays(ctx, variable, written, parsed);
  if (variable.attrs.readonly && parsed.off.has('r')) throw new VarError(`${name}: readonly variable`);
  if (variable.attrs.readonly && assigns) throw new ReadonlyValue(`${name}: readonly variable`);
  // (A nameref is no longer an integer nor lower or upper case, unless given again.)
  if (itself) Object.assign(variable.attrs, { integer: false, lower: false, upper: false });
  for (const c of parsed.on) applyLetter(variable.attrs, c, true);
  for (const c of parsed.off) applyLetter(variable.attrs, c, false);
  // A string made an array keeps its value as element 0 (key 0), as bash's does.
  if (variable.attrs.array === 'assoc' && variable.value && variable.value.kind !== 'assoc' && !assigns) {
    const items = new AssocTable();
    if (variable.value.kind === 'scalar') items.set('0', variable.value.value);
    variable.value = { kind: 'assoc', items };
  }
  if (variable.attrs.array === 'indexed' && variable.value?.kind === 'scalar')
    variable.value = { kind: 'indexed', items: new IndexedItems([[0, variable.value.value]]) };
  const value = written.value;
  const list =
    value &&
    value.index === null &&
    !itself &&
    (parsed.on.has('a') || parsed.on.has('A') || arrayKind(variable))
      ? quotedList(ctx, name, value.text, value.append)
      : null;
  if (assigns)
    await assignDeclared(ctx, variable, list ? { name, array: list, value: null } : written, itself);
  if (refOff) refOff.attrs.nameref = false;
}

// The value of declare NAME=value (or NAME=(...)), even to a variable made read-only by the same
// declare; with -n, the nameref's own (NAME+=value appends to it).
async function assignDeclared(
  ctx: BuiltinContext,
  variable: Variable,
  written: Written,
  itself: boolean,
): Promise<void> {
  const readonly = variable.attrs.readonly;
  variable.attrs.readonly = false;
  try {
    // (A list read from a value is not traced: its words are not the text's.)
    if (written.array)
      await assignInOrder(ctx.r, [written.array], {
        declared: true,
        untraced: !ctx.decl?.includes(written.array),
      });
    else if (itself && written.value!.index === null) {
      const old = written.value!.append && variable.value?.kind === 'scalar' ? variable.value.value : '';
      variable.value = { kind: 'scalar', value: old + written.value!.text };
    } else await assignValue(ctx, written.name, written.value!);
  } finally {
    variable.attrs.readonly = readonly;
  }
}

async function assignValue(
  ctx: BuiltinContext,
  name: string,
  value: NonNullable<Written['value']>,
): Promise<void> {
  if (value.index === null) {
    ctx.sh.vars.assign(name, value.text, { append: value.append });
    return;
  }
  // (An empty subscript, as written or expanded, names no element: bash says so, status 1.)
  if (value.index === '' || (/^[@*]$/.test(value.index) && !isAssoc(ctx, name)))
    throw new VarError(`${name}[${value.index}]: bad array subscript`);
  const index = subscriptOf(ctx.r, name, value.index);
  ctx.sh.vars.assign(name, value.text, { append: value.append, index });
}

// An indexed array does not become an associative one, nor the other way, and +a or +A does not
// make an array a string: bash says so (status 1) and leaves it as it is. With a list to assign, bash
// finds the first while it expands the argument: a -c text (or eval) ends there, unless declare,
// typeset or local runs in a function: then it is said twice, the second time as the builtin's.
async function checkArrays(
  ctx: BuiltinContext,
  variable: Variable,
  written: Written,
  parsed: Parsed,
): Promise<void> {
  const { name } = written;
  const kind = arrayKind(variable);
  let message: string | null = null;
  if (parsed.on.has('A') && kind === 'indexed') message = 'cannot convert indexed to associative array';
  else if (parsed.on.has('a') && kind === 'assoc') message = 'cannot convert associative to indexed array';
  else if ((parsed.off.has('a') && kind === 'indexed') || (parsed.off.has('A') && kind === 'assoc'))
    message = 'cannot destroy array variables in this way';
  if (message === null) return;
  if (written.array && ctx.sh.funcNames.length > 0 && !['readonly', 'export'].includes(ctx.name))
    await ctx.r.error(`${name}: ${message}`);
  else if (written.array) throw new ExpansionError(`${name}: ${message}`, 1, true);
  throw new VarError(`${name}: ${message}`);
}

function applyLetter(attrs: Attrs, c: string, on: boolean): void {
  const key = LETTERS[c];
  if (!key) return;
  if (key === 'array') attrs.array = on ? 'indexed' : attrs.array;
  else if (key === 'assoc') attrs.array = on ? 'assoc' : attrs.array;
  else (attrs as unknown as Record<string, boolean>)[key] = on;
  if (key === 'lower' && on) attrs.upper = false;
  if (key === 'upper' && on) attrs.lower = false;
}
