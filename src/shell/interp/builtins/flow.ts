import fs from 'node:fs';
import { openTarget } from '../../../engine/fifo-open.js';
import { stdioAlias } from '../../../engine/stdio-alias.js';
import { scalarOf } from '../../expand/variable.js';
import { type Bytes, fromBytes } from '../../syntax/source.js';
import { BreakSignal, ContinueSignal, ExitSignal, ReturnSignal } from '../signals.js';
import { waitStop } from '../wait-stop.js';
import type { BuiltinContext } from './context.js';

// A numeric argument as bash reads one for exit, return, shift, break: null when it is not a number.
function numberArg(text: Bytes): number | null {
  const trimmed = text.trim();
  return /^[-+]?[0-9]+$/.test(trimmed) ? Number(trimmed) : null;
}

// The status exit and return take from their arguments, as bash 5.2's get_exitstat: a leading `--`
// is skipped, no argument means $?, a word that is no number is 2 (said), a second argument is 1
// (said), and a number is taken modulo 256.
async function exitStatus(ctx: BuiltinContext): Promise<number> {
  const args = ctx.args[0] === '--' ? ctx.args.slice(1) : ctx.args;
  const arg = args[0];
  if (arg === undefined)
    return ctx.name === 'exit' ? (ctx.sh.exitTrapStatus ?? ctx.sh.status) : ctx.sh.status;
  const value = numberArg(arg);
  if (value === null) {
    await ctx.fail(`${arg}: numeric argument required`);
    return 2;
  }
  if (args.length > 1) return ctx.fail('too many arguments');
  return ((value % 256) + 256) % 256;
}

export async function exit(ctx: BuiltinContext): Promise<number> {
  throw new ExitSignal(await exitStatus(ctx));
}

export async function returnBuiltin(ctx: BuiltinContext): Promise<number> {
  if (ctx.sh.funcNames.length === 0 && ctx.sh.sourceDepth === 0) {
    return ctx.fail("can only `return' from a function or sourced script", 2);
  }
  throw new ReturnSignal(await exitStatus(ctx));
}

// break [n] and continue [n]: leave (or go on with) the nth enclosing loop.
export async function loopControl(ctx: BuiltinContext): Promise<number> {
  const arg = ctx.args[0];
  let levels = 1;
  if (arg !== undefined) {
    const value = numberArg(arg);
    if (value === null) return ctx.fail(`${arg}: numeric argument required`, 128);
    if (value < 1) return ctx.fail(`${value}: loop count out of range`);
    levels = value;
  }
  if (ctx.sh.loopDepth === 0) return ctx.fail("only meaningful in a `for', `while', or `until' loop", 0);
  levels = Math.min(levels, ctx.sh.loopDepth);
  throw ctx.name === 'break' ? new BreakSignal(levels) : new ContinueSignal(levels);
}

export async function shift(ctx: BuiltinContext): Promise<number> {
  const arg = ctx.args[0];
  const n = arg === undefined ? 1 : numberArg(arg);
  if (n === null) return ctx.fail(`${arg}: numeric argument required`);
  if (n < 0) return ctx.fail(`${arg}: shift count out of range`);
  if (n > ctx.sh.positional.length) return 1;
  ctx.sh.positional = ctx.sh.positional.slice(n);
  return 0;
}

// eval ARGS: the arguments joined by spaces, run as text in this shell.
export async function evalBuiltin(ctx: BuiltinContext): Promise<number> {
  const text = ctx.args.join(' ');
  if (text.trim() === '') return 0;
  return ctx.r.runText(text, { label: 'eval', firstLine: ctx.sh.lineno });
}

// source FILE [ARGS] and `. FILE`: the file's text run in this shell, with ARGS as $1... while it runs.
export async function source(ctx: BuiltinContext): Promise<number> {
  const name = ctx.args[0];
  if (name === undefined) return ctx.usage(`${ctx.name} filename [arguments]`, 'filename argument required');
  const found = await sourcedText(ctx, name);
  if ('status' in found) return found.status;
  return ctx.r.runText(found.text, {
    label: name,
    args: ctx.args.length > 1 ? ctx.args.slice(1) : null,
    sourced: found.name,
  });
}

// The text of the file `name` names: /dev/stdin, /dev/fd/N and their kin are the shell's own
// descriptor (a here-string, a pipe), read to its end.
async function sourcedText(
  ctx: BuiltinContext,
  name: Bytes,
): Promise<{ text: Bytes; name: Bytes } | { status: number }> {
  const where = name.startsWith('/') ? name : `${ctx.sh.cwd === '/' ? '' : ctx.sh.cwd}/${name}`;
  const alias = name.includes('/') ? stdioAlias(fromBytes(where)) : null;
  if (alias !== null) {
    const input = ctx.input(alias);
    if (input.fd === null && input.why === 'closed') return missing(ctx, name);
    const text =
      input.fd === null ? '' : (await ctx.readInput(input.fd, () => false)).bytes.toString('latin1');
    return { text, name };
  }
  const found = findSourced(ctx, name);
  // bash names no builtin here, as it does for a directory.
  if (found === null) return missing(ctx, name);
  try {
    return { text: await readWhole(ctx, found.file), name: found.name };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      status: await ctx.fail(
        `${name}: ${code === 'EISDIR' ? 'is a directory' : 'No such file or directory'}`,
      ),
    };
  }
}

// A file that is not there: bash names it alone, without the builtin's name.
async function missing(ctx: BuiltinContext, name: Bytes): Promise<{ status: number }> {
  await ctx.err(`${ctx.sh.messageName()}: line ${ctx.sh.lineno}: ${name}: No such file or directory\n`);
  return { status: 1 };
}

// Read without ever blocking the event loop: the file may be a FIFO (`source <(cmd)`) whose writer is
// a job of this very shell, which can only run while safe-run's thread is free.
async function readWhole(ctx: BuiltinContext, file: Bytes): Promise<Bytes> {
  const fd = await openTarget(fromBytes(file), fs.constants.O_RDONLY, waitStop(ctx.r));
  if (typeof fd !== 'number') throw new ExitSignal(1, 'stopped');
  try {
    return (await ctx.readInput(fd, () => false)).bytes.toString('latin1');
  } finally {
    fs.closeSync(fd);
  }
}

// The file to read, and its name as bash gives it (BASH_SOURCE, messages): a directory of PATH as
// written before the name found there ("./" for an empty one), else the name itself.
function findSourced(ctx: BuiltinContext, name: Bytes): { file: Bytes; name: Bytes } | null {
  const inDir = (dir: Bytes) => (name.startsWith('/') ? name : `${dir === '/' ? '' : dir}/${name}`);
  const exists = (path: Bytes) =>
    fs.statSync(Buffer.from(path, 'latin1'), { throwIfNoEntry: false })?.isFile() ?? false;
  if (!name.includes('/') && ctx.sh.shopts.has('sourcepath')) {
    const path = scalarOf(ctx.sh.vars.get('PATH')) ?? '';
    for (const dir of path.split(':')) {
      const candidate = inDir(dir === '' ? ctx.sh.cwd : dir.startsWith('/') ? dir : `${ctx.sh.cwd}/${dir}`);
      if (exists(candidate))
        return { file: candidate, name: `${dir === '' ? '.' : dir.replace(/\/$/, '')}/${name}` };
    }
  }
  const here = inDir(ctx.sh.cwd);
  return fs.existsSync(Buffer.from(here, 'latin1')) ? { file: here, name } : null;
}
