import type { Bytes } from '../../syntax/source.js';
import type { BuiltinContext } from './context.js';

// alias and unalias keep bash's table of aliases. bash -c expands none of them (expand_aliases is
// off, and turning it on is refused: set.ts), so the table is only listed, never used.
const NOT_IN_A_NAME = /[()<>;&| \t\n"'`\\$/]/;

function quoted(value: Bytes): Bytes {
  return `'${value.replaceAll("'", "'\\''")}'`;
}

// alias [-p] [NAME[=VALUE]...]
export async function alias(ctx: BuiltinContext): Promise<number> {
  const { aliases } = ctx.sh;
  let args = ctx.args;
  let list = args.length === 0;
  for (; args[0]?.startsWith('-') && args[0] !== '-'; args = args.slice(1)) {
    if (args[0] === '--') {
      args = args.slice(1);
      break;
    }
    if (args[0] !== '-p')
      return ctx.fail(`${args[0]}: invalid option\nalias: usage: alias [-p] [name[=value] ... ]`, 2);
    list = true;
  }
  let status = 0;
  if (list)
    for (const name of [...aliases.keys()].sort())
      await ctx.out(`alias ${name}=${quoted(aliases.get(name)!)}\n`);
  for (const arg of args) {
    const eq = arg.indexOf('=');
    if (eq > 0) {
      const name = arg.slice(0, eq);
      if (NOT_IN_A_NAME.test(name)) status = await ctx.fail(`\`${name}': invalid alias name`);
      else aliases.set(name, arg.slice(eq + 1));
    } else if (aliases.has(arg)) await ctx.out(`alias ${arg}=${quoted(aliases.get(arg)!)}\n`);
    else status = await ctx.fail(`${arg}: not found`);
  }
  return ctx.finish(status);
}

// unalias [-a] NAME...
export async function unalias(ctx: BuiltinContext): Promise<number> {
  const { aliases } = ctx.sh;
  let args = ctx.args;
  if (args[0] === '-a') {
    aliases.clear();
    return 0;
  }
  if (args[0] === '--') args = args.slice(1);
  else if (args[0]?.startsWith('-') && args[0] !== '-')
    return ctx.fail(`${args[0]}: invalid option\nunalias: usage: unalias [-a] name [name ...]`, 2);
  if (args.length === 0) {
    await ctx.err('unalias: usage: unalias [-a] name [name ...]\n');
    return 2;
  }
  let status = 0;
  for (const name of args) if (!aliases.delete(name)) status = await ctx.fail(`${name}: not found`);
  return status;
}
