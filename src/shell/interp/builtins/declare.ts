import { AssocTable } from '../../expand/assoc-table.js';
import { shellArray } from '../../expand/param-lookup.js';
import type { Attrs, Variable } from '../../expand/variable.js';
import { VarError } from '../../expand/vars.js';
import type { Assign } from '../../syntax/nodes.js';
import type { Bytes } from '../../syntax/source.js';
import { subscriptOf } from '../assign-named.js';
import { assignInOrder } from '../assignments.js';
import type { BuiltinContext } from './context.js';
import { declareFunctions } from './declare-functions.js';
import { declaration } from './declare-print.js';

// An assignment to a read-only variable: bash says so without the builtin's name.
class ReadonlyValue extends VarError {}

interface Parsed {
  on: Set<string>;
  off: Set<string>;
  names: { text: Bytes; assign: Assign | null }[];
}

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
  if (parsed.on.has('p') || parsed.names.length === 0) return printAll(ctx, parsed);
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
    const written = writtenAs(text, assign);
    if (!written) {
      status = await ctx.fail(`\`${text}': not a valid identifier`);
      continue;
    }
    try {
      await declareOne(ctx, written, parsed, local);
    } catch (error) {
      if (!(error instanceof VarError)) throw error;
      if (error instanceof ReadonlyValue) {
        await ctx.r.error(error.message);
        status = 1;
      } else status = await ctx.fail(error.message);
    }
  }
  return status;
}

// One argument after the options, as the builtin reads it once expanded: NAME, NAME=value,
// NAME+=value, NAME[i]=value (however it was quoted, or an expansion gave it: bash parses the word
// itself), or NAME=(...) as written (an array, kept as the assignment node).
interface Written {
  name: string;
  array: Assign | null;
  value: { text: Bytes; append: boolean; index: Bytes | null } | null;
}

function writtenAs(text: Bytes, assign: Assign | null): Written | null {
  if (assign?.array) return { name: assign.name, array: assign, value: null };
  const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[(.*?)\])?(?:(\+?)=(.*))?$/s.exec(text);
  if (!match) return null;
  const [, name, index, plus, value] = match;
  if (value === undefined) return index === undefined ? { name: name!, array: null, value: null } : null;
  return { name: name!, array: null, value: { text: value, append: plus === '+', index: index ?? null } };
}

function parse(ctx: BuiltinContext): Parsed | Promise<number> {
  const parsed: Parsed = { on: new Set(), off: new Set(), names: [] };
  if (ctx.name === 'export') parsed.on.add('x');
  if (ctx.name === 'readonly') parsed.on.add('r');
  let options = true;
  ctx.args.forEach((arg, i) => {
    const assign = ctx.decl?.[i + 1] ?? null;
    if (options && assign === null && arg === '--') {
      options = false;
      return;
    }
    if (options && assign === null && /^[-+][A-Za-z]+$/.test(arg)) {
      const set = arg[0] === '-' ? parsed.on : parsed.off;
      for (const c of arg.slice(1)) {
        if (ctx.name === 'export' && c === 'n') parsed.off.add('x');
        else set.add(c);
      }
      return;
    }
    options = false;
    parsed.names.push({ text: arg, assign });
  });
  const bad = [...parsed.on, ...parsed.off].find((c) => !'aAfFgilnprtuxI'.includes(c));
  if (bad) return ctx.usage(DECLARE_USAGE[ctx.name] ?? '', `-${bad}: invalid option`);
  return parsed;
}

// bash's usage line for each declaration builtin, after an invalid option.
const DECLARE_USAGE: Record<string, string> = {
  declare: 'declare [-aAfFgiIlnrtux] [name[=value] ...] or declare -p [-aAfFilnrtux] [name ...]',
  typeset: 'typeset [-aAfFgiIlnrtux] name[=value] ... or typeset -p [-aAfFilnrtux] [name ...]',
  local: 'local [option] name[=value] ...',
  export: 'export [-fn] [name[=value] ...] or export -p',
  readonly: 'readonly [-aAf] [name[=value] ...] or readonly -p',
};

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
  // -n and +n work on the name itself, not on what a nameref it already is leads to.
  const itself = parsed.on.has('n') || parsed.off.has('n');
  const variable = local
    ? sh.vars.declareLocal(name)
    : ((itself ? sh.vars.getRaw(name) : undefined) ?? sh.vars.target(name));
  const assigns = written.array !== null || written.value !== null;
  if (variable.attrs.readonly && parsed.off.has('r')) throw new VarError(`${name}: readonly variable`);
  if (variable.attrs.readonly && assigns) throw new ReadonlyValue(`${name}: readonly variable`);
  if (!assigns) checkConversion(variable, name, parsed.on);
  for (const c of parsed.on) applyLetter(variable.attrs, c, true);
  for (const c of parsed.off) applyLetter(variable.attrs, c, false);
  // A string made associative keeps its value under the key 0, as bash's does.
  if (variable.attrs.array === 'assoc' && variable.value && variable.value.kind !== 'assoc' && !assigns) {
    const items = new AssocTable();
    if (variable.value.kind === 'scalar') items.set('0', variable.value.value);
    variable.value = { kind: 'assoc', items };
  }
  if (!assigns) return;
  const readonly = variable.attrs.readonly;
  variable.attrs.readonly = false;
  try {
    if (written.array) await assignInOrder(ctx.r, [written.array], { declared: true });
    else if (itself && written.value!.index === null && !written.value!.append)
      variable.value = { kind: 'scalar', value: written.value!.text };
    else await assignValue(ctx, name, written.value!);
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
  const index = subscriptOf(ctx.r, name, value.index);
  ctx.sh.vars.assign(name, value.text, { append: value.append, index });
}

// An indexed array does not become an associative one, nor the other way: bash says so (status 1)
// and leaves it as it is. (With a value, bash ends the shell instead: not done here.)
function checkConversion(variable: Variable, name: string, on: Set<string>): void {
  const kind =
    variable.attrs.array ?? (variable.value?.kind === 'scalar' ? null : (variable.value?.kind ?? null));
  if (on.has('A') && kind === 'indexed')
    throw new VarError(`${name}: cannot convert indexed to associative array`);
  if (on.has('a') && kind === 'assoc')
    throw new VarError(`${name}: cannot convert associative to indexed array`);
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

// declare -p [names], export -p, readonly -p (or with no names): each variable written back. With no
// names: those with one of the attributes given (arrays only for -a, -A), or a function's locals.
async function printAll(ctx: BuiltinContext, parsed: Parsed): Promise<number> {
  const { sh } = ctx;
  let status = 0;
  const all = parsed.names.length === 0;
  const names = all ? sh.vars.names(ctx.name === 'local') : parsed.names.map((n) => n.text);
  const wanted = new Set(parsed.on);
  if (ctx.name === 'export') wanted.add('x');
  if (ctx.name === 'readonly') wanted.add('r');
  for (const name of names) {
    const variable = sh.vars.getRaw(name) ?? (all ? undefined : shellArray(ctx.r.ex.env, name));
    if (!variable) {
      if (!all) status = await ctx.fail(`${name}: not found`);
      continue;
    }
    if (all && ctx.name !== 'local' && !listed(variable, wanted)) continue;
    await ctx.out(`${declaration(name, variable)}\n`);
  }
  return ctx.finish(status);
}

// Whether `declare -FLAGS` with no names lists the variable: only arrays for -a (else only associative
// ones for -A), and of those the ones with one of the other attributes given (bash's any, not all).
function listed(variable: Variable, flags: Set<string>): boolean {
  const kind =
    variable.attrs.array ?? (variable.value?.kind === 'scalar' ? null : (variable.value?.kind ?? null));
  const { attrs } = variable;
  const has: Record<string, boolean> = {
    a: kind === 'indexed',
    A: kind === 'assoc',
    i: attrs.integer,
    l: attrs.lower,
    u: attrs.upper,
    n: attrs.nameref,
    r: attrs.readonly,
    x: attrs.exported,
  };
  const only = flags.has('a') ? 'a' : flags.has('A') ? 'A' : null;
  if (only && !has[only]) return false;
  const letters = [...flags].filter((c) => c !== 'p' && c !== 'g' && c !== only);
  return letters.length === 0 || letters.some((c) => has[c]);
}
