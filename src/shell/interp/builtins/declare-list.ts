import { declaration } from '../../expand/declaration.js';
import { isUtf8Locale } from '../../expand/oracle-state.js';
import { shellArray } from '../../expand/param-lookup.js';
import { arrayKind, type Variable } from '../../expand/variable.js';
import type { Bytes } from '../../syntax/source.js';
import type { BuiltinContext } from './context.js';

// declare -p [names], export -p, readonly -p (or with no names): each variable written back. With no
// names: those with one of the attributes given (arrays only for -a, -A), or a function's locals.
export async function printAll(ctx: BuiltinContext, on: Set<string>, given: Bytes[]): Promise<number> {
  const { sh } = ctx;
  let status = 0;
  const all = given.length === 0;
  const names = all ? sh.vars.names(ctx.name === 'local') : given;
  const wanted = new Set(on);
  if (ctx.name === 'export') wanted.add('x');
  if (ctx.name === 'readonly') wanted.add('r');
  for (const name of names) {
    const variable = sh.vars.getRaw(name) ?? (all ? undefined : shellArray(ctx.r.ex.env, name));
    if (!variable) {
      if (!all) status = await ctx.fail(`${name}: not found`);
      continue;
    }
    if (all && ctx.name !== 'local' && !listed(variable, wanted)) continue;
    await ctx.out(`${declaration(name, variable, isUtf8Locale(ctx.r.ex.env))}\n`);
  }
  return ctx.finish(status);
}

// Whether `declare -FLAGS` with no names lists the variable: only arrays for -a (else only associative
// ones for -A), and of those the ones with one of the other attributes given (bash's any, not all).
function listed(variable: Variable, flags: Set<string>): boolean {
  const kind = arrayKind(variable);
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
