import { BUILTIN_NAMES } from '../../../model/bash-builtins.js';
import { scalarOf } from '../../expand/variable.js';
import type { BuiltinContext } from './context.js';
import { kindsOf } from './type.js';

const USAGE = 'hash: usage: hash [-lr] [-p pathname] [-dt] [name ...]';

// hash [-lr] [-dt] [NAME...]: bash's table of programs found on PATH (hash-table.ts): listed, emptied,
// an entry removed or shown, a name looked up and added. (-p, a name made to run a path bash did
// not find, is refused: safe-run finds programs on PATH itself.)
export async function hash(ctx: BuiltinContext): Promise<number> {
  const table = ctx.sh.hashed;
  const pathValue = scalarOf(ctx.sh.vars.get('PATH'));
  let flags = '';
  let k = 0;
  for (; k < ctx.args.length && /^-./.test(ctx.args[k]!) && ctx.args[k] !== '--'; k++) {
    const bad = ctx.args[k]!.slice(1).replace(/[lrpdt]/g, '')[0];
    if (bad !== undefined) return ctx.fail(`-${bad}: invalid option\n${USAGE}`, 2);
    flags += ctx.args[k]!.slice(1);
  }
  if (ctx.args[k] === '--') k++;
  if (flags.includes('p')) ctx.refuse('makes a name run a given file (hash -p), which safe-run does not do');
  if (flags.includes('r')) table.clear();
  const names = ctx.args.slice(k);
  if (names.length === 0) return listTable(ctx, flags);
  let status = 0;
  for (const name of names) {
    if (name.includes('/')) continue;
    if (flags.includes('d')) {
      table.delete(name);
    } else if (flags.includes('t')) {
      const entry = table.get(name, pathValue);
      if (!entry) status = await ctx.fail(`${name}: not found`);
      else await ctx.out(names.length > 1 ? `${name}\t${entry.path}\n` : `${entry.path}\n`);
    } else if (!ctx.sh.functions.has(name) && !BUILTIN_NAMES.has(name)) {
      const found = kindsOf(ctx, name, { functions: false, all: false, files: true })[0];
      if (found?.path) table.note(name, found.path, pathValue, false);
      else status = await ctx.fail(`${name}: not found`);
    }
  }
  return ctx.finish(status);
}

async function listTable(ctx: BuiltinContext, flags: string): Promise<number> {
  const entries = ctx.sh.hashed.list(scalarOf(ctx.sh.vars.get('PATH')));
  if (entries.length === 0) {
    if (flags === '') await ctx.out('hash: hash table empty\n');
  } else if (flags.includes('l')) {
    for (const [name, entry] of entries) await ctx.out(`builtin hash -p ${entry.path} ${name}\n`);
  } else {
    await ctx.out('hits\tcommand\n');
    for (const [, entry] of entries) await ctx.out(`${String(entry.hits).padStart(4)}\t${entry.path}\n`);
  }
  return ctx.finish(0);
}
