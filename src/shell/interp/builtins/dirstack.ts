import { scalarOf } from '../../expand/variable.js';
import type { Bytes } from '../../syntax/source.js';
import { enter } from './cd.js';
import type { BuiltinContext } from './context.js';

// The directory stack of pushd, popd and dirs: the shell's directory first, then the ones saved
// (sh.dirStack, the most recent first), as bash keeps it and DIRSTACK shows it.
function entries(ctx: BuiltinContext): Bytes[] {
  return [ctx.sh.cwd, ...ctx.sh.dirStack];
}

// A directory under $HOME as dirs shows it: ~ for the home directory (not for HOME=/).
function tilded(ctx: BuiltinContext, dir: Bytes): Bytes {
  const home = scalarOf(ctx.sh.vars.get('HOME'));
  if (!home || home.length < 2 || !dir.startsWith(home)) return dir;
  const rest = dir.slice(home.length);
  return rest === '' || rest.startsWith('/') ? `~${rest}` : dir;
}

async function printStack(ctx: BuiltinContext): Promise<number> {
  await ctx.out(
    `${entries(ctx)
      .map((dir) => tilded(ctx, dir))
      .join(' ')}\n`,
  );
  return ctx.finish(0);
}

// +N counts from the left of `dirs`, -N from the right; null when there is no such entry.
function indexOf(ctx: BuiltinContext, spec: string): number | null {
  const n = Number(spec.slice(1));
  const count = entries(ctx).length;
  const index = spec[0] === '+' ? n : count - 1 - n;
  return index >= 0 && index < count ? index : null;
}

function outOfRange(ctx: BuiltinContext, spec: string): Promise<number> {
  return ctx.fail(
    ctx.sh.dirStack.length === 0 ? 'directory stack empty' : `${spec}: directory stack index out of range`,
  );
}

// dirs [-clpv] [+N | -N]
export async function dirs(ctx: BuiltinContext): Promise<number> {
  let flags = '';
  let which: string | null = null;
  for (const arg of ctx.args) {
    if (/^[-+][0-9]+$/.test(arg)) which = arg;
    else if (/^-[clpv]+$/.test(arg)) flags += arg.slice(1);
    else return ctx.fail(`${arg}: invalid number\ndirs: usage: dirs [-clpv] [+N] [-N]`, 2);
  }
  if (flags.includes('c')) {
    ctx.sh.dirStack = [];
    return 0;
  }
  const shown = (dir: Bytes) => (flags.includes('l') ? dir : tilded(ctx, dir));
  if (which !== null) {
    const index = indexOf(ctx, which);
    // (dirs names the entry without its sign, pushd and popd with it.)
    if (index === null) return outOfRange(ctx, which.slice(1));
    await ctx.out(`${shown(entries(ctx)[index]!)}\n`);
    return ctx.finish(0);
  }
  const list = entries(ctx).map(shown);
  if (flags.includes('v')) await ctx.out(list.map((dir, i) => `${String(i).padStart(2)}  ${dir}\n`).join(''));
  else if (flags.includes('p')) await ctx.out(list.map((dir) => `${dir}\n`).join(''));
  else await ctx.out(`${list.join(' ')}\n`);
  return ctx.finish(0);
}

// pushd [-n] [+N | -N | DIR]: DIR becomes the directory, the old one saved; +N/-N turn the stack;
// nothing: the first two swap.
export async function pushd(ctx: BuiltinContext): Promise<number> {
  const { sh } = ctx;
  const args = ctx.args.filter((arg) => arg !== '-n' && arg !== '--');
  const noCd = ctx.args.includes('-n');
  if (args.length > 1) return ctx.fail('too many arguments');
  const [arg] = args;
  if (arg === undefined) {
    if (noCd) return 0;
    if (sh.dirStack.length === 0) return ctx.fail('no other directory');
    const next = sh.dirStack[0]!;
    sh.dirStack[0] = sh.cwd;
    const status = await enter(ctx, next, sh.option('physical'));
    return status === 0 ? printStack(ctx) : status;
  }
  if (/^[-+][0-9]+$/.test(arg)) {
    const index = indexOf(ctx, arg);
    if (index === null) return outOfRange(ctx, arg);
    const all = entries(ctx);
    const turned = [...all.slice(index), ...all.slice(0, index)];
    const status = await enter(ctx, turned[0]!, sh.option('physical'));
    if (status !== 0) return status;
    sh.dirStack = turned.slice(1);
    return printStack(ctx);
  }
  if (noCd) {
    sh.dirStack.unshift(arg);
    return printStack(ctx);
  }
  const old = sh.cwd;
  const status = await enter(ctx, arg, sh.option('physical'));
  if (status !== 0) return status;
  sh.dirStack.unshift(old);
  return printStack(ctx);
}

// popd [-n] [+N | -N]: the entry leaves the stack; the first one: the directory becomes the next.
export async function popd(ctx: BuiltinContext): Promise<number> {
  const { sh } = ctx;
  const noCd = ctx.args.includes('-n');
  const args = ctx.args.filter((arg) => arg !== '-n' && arg !== '--');
  const bad = args.find((arg) => !/^[-+][0-9]+$/.test(arg));
  if (bad !== undefined) return ctx.fail(`${bad}: invalid argument\npopd: usage: popd [-n] [+N | -N]`, 2);
  if (sh.dirStack.length === 0) return ctx.fail('directory stack empty');
  const spec = args[0] ?? '+0';
  const index = indexOf(ctx, spec);
  if (index === null) return outOfRange(ctx, spec);
  if (index === 0 && noCd) sh.dirStack.shift();
  else if (index === 0) {
    const status = await enter(ctx, sh.dirStack[0], sh.option('physical'));
    if (status !== 0) return status;
    sh.dirStack.shift();
  } else sh.dirStack.splice(index - 1, 1);
  return printStack(ctx);
}
