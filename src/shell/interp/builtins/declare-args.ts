import type { Assign } from '../../syntax/nodes.js';
import type { Bytes } from '../../syntax/source.js';
import type { BuiltinContext } from './context.js';

// The options of declare and its kin: letters turned on (-x) and off (+x); the arguments after them.
export interface Parsed {
  on: Set<string>;
  off: Set<string>;
  names: { text: Bytes; assign: Assign | null }[];
}

// One argument after the options, as the builtin reads it once expanded: NAME, NAME=value,
// NAME+=value, NAME[i]=value (however it was quoted, or an expansion gave it: bash parses the word
// itself), or NAME=(...) as written (an array, kept as the assignment node).
export interface Written {
  name: string;
  array: Assign | null;
  value: { text: Bytes; append: boolean; index: Bytes | null } | null;
  // NAME[SUB] with no value: declares NAME an array (bash's declare a[1] is declare -a a).
  element?: boolean;
}

export function writtenAs(text: Bytes, assign: Assign | null): Written | null {
  if (assign?.array) return { name: assign.name, array: assign, value: null };
  const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[(.*?)\])?(?:(\+?)=(.*))?$/s.exec(text);
  if (!match) return null;
  const [, name, index, plus, value] = match;
  if (value === undefined) {
    if (index === undefined) return { name: name!, array: null, value: null };
    return index === '' ? null : { name: name!, array: null, value: null, element: true };
  }
  return { name: name!, array: null, value: { text: value, append: plus === '+', index: index ?? null } };
}

export function parse(ctx: BuiltinContext): Parsed | Promise<number> {
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
  // -l with -u: each takes the other back, so the variable ends with neither (as bash's does).
  if (parsed.on.has('l') && parsed.on.has('u')) for (const c of 'lu') parsed.off.add(c);
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
