import { BASH_DEFAULT_PATH, searchPath } from '../../../engine/resolve/search-path.js';
import { BUILTIN_NAMES } from '../../../model/bash-builtins.js';
import { RESERVED_WORDS } from '../../../model/bash-reserved-words.js';
import { ExpansionError } from '../../expand/env.js';
import { scalarOf } from '../../expand/variable.js';
import { fromBytes } from '../../syntax/source.js';
import type { BuiltinContext } from './context.js';

// let EXPR...: each argument evaluated; 1 when the last is 0.
export async function letBuiltin(ctx: BuiltinContext): Promise<number> {
  if (ctx.args.length === 0) return ctx.fail('expression expected');
  let last = 0n;
  for (const arg of ctx.args) {
    try {
      last = ctx.r.ex.evaluate(arg);
    } catch (error) {
      if (error instanceof ExpansionError) return ctx.fail(error.message);
      throw error;
    }
  }
  return last === 0n ? 1 : 0;
}

export async function hash(): Promise<number> {
  return 0;
}

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
    let index: number | string | undefined;
    if (element) {
      const variable = ctx.sh.vars.get(name);
      index = variable?.value?.kind === 'assoc' ? element[2]! : Number(ctx.r.ex.evaluate(element[2]!));
    }
    if (!ctx.sh.vars.unset(name, index)) status = await ctx.fail(`${name}: cannot unset: readonly variable`);
  }
  return status;
}

// What a name is, for command -v/-V and type: a function, a builtin, a reserved word, or a file.
function kindOf(ctx: BuiltinContext, name: string, functions = true): { kind: string; path?: string } | null {
  if (functions && RESERVED_WORDS.has(name)) return { kind: 'keyword' };
  if (functions && ctx.sh.functions.has(name)) return { kind: 'function' };
  if (BUILTIN_NAMES.has(name)) return { kind: 'builtin' };
  if (name.includes('/')) return null;
  const path = scalarOf(ctx.sh.vars.get('PATH'));
  const home = scalarOf(ctx.sh.vars.get('HOME'));
  const found = searchPath(
    fromBytes(name),
    fromBytes(path ?? BASH_DEFAULT_PATH),
    fromBytes(ctx.sh.cwd),
    home === null ? undefined : fromBytes(home),
    'bash',
  );
  return found.kind === 'found' ? { kind: 'file', path: found.path } : null;
}

// command -v NAME / -V NAME / command NAME ARGS (without functions).
export async function command(ctx: BuiltinContext): Promise<number> {
  const flag = ctx.args[0];
  if (flag === '-v' || flag === '-V') {
    let status = 0;
    for (const name of ctx.args.slice(1)) {
      const kind = kindOf(ctx, name);
      if (!kind) {
        status = 1;
        if (flag === '-V') await ctx.fail(`${name}: not found`);
        continue;
      }
      if (flag === '-v') await ctx.out(`${kind.path ?? name}\n`);
      else await ctx.out(`${describeKind(name, kind)}\n`);
    }
    return ctx.finish(status);
  }
  const args = flag === '-p' || flag === '--' ? ctx.args.slice(1) : ctx.args;
  if (args.length === 0) return 0;
  return ctx.r.runCommandWords(args, { functions: false });
}

function describeKind(name: string, kind: { kind: string; path?: string }): string {
  if (kind.kind === 'keyword') return `${name} is a shell keyword`;
  if (kind.kind === 'function') return `${name} is a function`;
  if (kind.kind === 'builtin') return `${name} is a shell builtin`;
  return `${name} is ${kind.path}`;
}

// type [-tpPa] NAME...
export async function type(ctx: BuiltinContext): Promise<number> {
  let flags = '';
  const names: string[] = [];
  for (const arg of ctx.args) {
    if (/^-[tpPaf]+$/.test(arg) && names.length === 0) flags += arg.slice(1);
    else names.push(arg);
  }
  let status = 0;
  for (const name of names) {
    const kind = kindOf(ctx, name, !flags.includes('P'));
    if (!kind) {
      status = 1;
      if (!flags.includes('t') && !flags.includes('p') && !flags.includes('P'))
        await ctx.fail(`${name}: not found`);
      continue;
    }
    if (flags.includes('t')) await ctx.out(`${kind.kind}\n`);
    else if (flags.includes('p') || flags.includes('P')) {
      if (kind.path) await ctx.out(`${kind.path}\n`);
    } else if (kind.kind === 'function') return ctx.fail('showing a function body is not supported here', 2);
    else await ctx.out(`${describeKind(name, kind)}\n`);
  }
  return ctx.finish(status);
}
