import { KEPT_ARRAYS } from '../../../model/bash-variables.js';
import { ArithmeticError } from '../../expand/env.js';
import { lastIndex } from '../../expand/variable.js';
import { parsePromptText } from '../../syntax/parse.js';
import type { BuiltinContext } from './context.js';

// let EXPR...: each argument evaluated; 1 when the last is 0.
export async function letBuiltin(ctx: BuiltinContext): Promise<number> {
  if (ctx.args.length === 0) return ctx.fail('expression expected');
  let last = 0n;
  for (const arg of ctx.args) {
    try {
      last = ctx.r.ex.evaluate(arg);
    } catch (error) {
      if (!(error instanceof ArithmeticError)) throw error;
      if (!error.plain) return ctx.fail(error.message);
      await ctx.r.error(error.message);
      return 1;
    }
  }
  return last === 0n ? 1 : 0;
}

export { hash } from './hash.js';

// umask [-S] [mode]: safe-run's own mask, which the programs it starts inherit.
export async function umask(ctx: BuiltinContext): Promise<number> {
  const symbolic = ctx.args[0] === '-S';
  const value = ctx.args.find((arg) => !arg.startsWith('-'));
  if (value === undefined) {
    const mask = process.umask();
    if (!symbolic) await ctx.out(`${mask.toString(8).padStart(4, '0')}\n`);
    else {
      const part = (shift: number, who: string) =>
        `${who}=${['r', 'w', 'x'].filter((_, i) => !((mask >> shift) & (4 >> i))).join('')}`;
      await ctx.out(`${[part(6, 'u'), part(3, 'g'), part(0, 'o')].join(',')}\n`);
    }
    return ctx.finish(0);
  }
  if (!/^[0-7]+$/.test(value)) return ctx.fail(`${value}: octal number out of range`);
  process.umask(Number.parseInt(value, 8));
  return 0;
}

// unset [-fv] NAME...: variables (then functions when no variable has the name).
export async function unset(ctx: BuiltinContext): Promise<number> {
  let mode: 'v' | 'f' | 'n' | null = null;
  let status = 0;
  for (const arg of ctx.args) {
    if (/^-[fvn]$/.test(arg) && mode === null) {
      mode = arg[1] as 'f' | 'v' | 'n';
      continue;
    }
    const element = /^([A-Za-z_][A-Za-z0-9_]*)\[(.*)\]$/s.exec(arg);
    const name = element ? element[1]! : arg;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && mode !== 'f') {
      status = await ctx.fail(`\`${arg}': not a valid identifier`);
      continue;
    }
    if (mode === 'f' || (mode === null && !ctx.sh.vars.get(name) && ctx.sh.functions.has(name))) {
      ctx.sh.functions.delete(name);
      continue;
    }
    // unset -n: a nameref itself; any other variable is left as it is.
    if (mode === 'n' && !ctx.sh.vars.getRaw(name)?.attrs.nameref) continue;
    if (KEPT_ARRAYS.has(name)) {
      status = await ctx.fail(`${name}: cannot unset`);
      continue;
    }
    const index = element
      ? await elementIndex(ctx, name, await expandedSubscript(ctx, element[2]!))
      : undefined;
    if (index === null) continue;
    if (typeof index === 'object') {
      status = index.status;
      continue;
    }
    const keepLocal = ctx.sh.shopts.has('localvar_unset');
    if (!ctx.sh.vars.unset(name, index, keepLocal, mode === 'n'))
      status = await ctx.fail(`${name}: cannot unset: readonly variable`);
  }
  return status;
}

// unset NAME[SUB]: an associative array's key as written; an indexed array's subscript by arithmetic
// (negative from the end; @ or * every element), whose error ends the shell as bash's does. Null:
// nothing to unset (no such variable, SUB empty, or every element done here); a status: bash's
// complaint.
async function elementIndex(
  ctx: BuiltinContext,
  name: string,
  sub: string,
): Promise<number | string | null | { status: number }> {
  const variable = ctx.sh.vars.get(name);
  const value = variable?.value;
  if (value?.kind === 'assoc') return sub === '' ? null : sub;
  if (sub === '' || variable === undefined) return null;
  if (sub === '@' || sub === '*') {
    if (variable?.attrs.readonly)
      return { status: await ctx.fail(`${name}: cannot unset: readonly variable`) };
    // (Of a scalar, bash says it is none.)
    if (value?.kind !== 'indexed' && !variable.attrs.array)
      return { status: await ctx.fail(`${name}: not an array variable`) };
    if (value?.kind === 'indexed') value.items.clear();
    return null;
  }
  let at = ctx.r.ex.subscript(sub);
  const indexed = value?.kind === 'indexed' || variable.attrs.array === 'indexed';
  if (at < 0 && indexed) {
    at += lastIndex(variable) + 1;
    if (at < 0) return { status: await ctx.fail(`[${sub}]: bad array subscript`) };
  }
  if (!indexed && at !== 0) return { status: await ctx.fail(`${name}: not an array variable`) };
  return at;
}

// unset 'a[$i]', unset 'a[${#a[@]}-1]': bash expands the subscript's $ and ` as in double quotes
// first (a key of an associative array too). A command substitution there is refused: safe-run
// checks only the text's own commands for what it runs.
async function expandedSubscript(ctx: BuiltinContext, sub: string): Promise<string> {
  if (!/[$`]/.test(sub)) return sub;
  if (/`|\$\((?!\()|[<>]\(/.test(sub)) ctx.refuse(`expands a command substitution in the subscript ${sub}`);
  const word = parsePromptText(sub);
  return word ? ctx.r.ex.quotedText(word.parts, 'dq') : sub;
}
