import fs from 'node:fs';
import path from 'node:path';
import { escapeAt } from '../../expand/ansi.js';
import { isUtf8Locale, localeFields } from '../../expand/oracle-state.js';
import type { Bytes } from '../../syntax/source.js';
import type { BuiltinContext } from './context.js';

export async function colon(): Promise<number> {
  return 0;
}

export async function falseBuiltin(): Promise<number> {
  return 1;
}

// echo [-neE] ARGS: options only while every letter is one of n, e, E; \c under -e ends the output.
export async function echo(ctx: BuiltinContext): Promise<number> {
  let newline = true;
  let escapes = ctx.sh.shopts.has('xpg_echo');
  let at = 0;
  for (; at < ctx.args.length; at++) {
    const arg = ctx.args[at]!;
    if (!/^-[neE]+$/.test(arg)) break;
    for (const c of arg.slice(1)) {
      if (c === 'n') newline = false;
      else escapes = c === 'e';
    }
  }
  let text = ctx.args.slice(at).join(' ');
  if (escapes) {
    const { out, stopped } = echoEscapes(text, isUtf8Locale(ctx.r.ex.env));
    text = out;
    if (stopped) newline = false;
  }
  await ctx.out(newline ? `${text}\n` : text);
  return ctx.finish(0);
}

function echoEscapes(text: Bytes, utf8: boolean): { out: Bytes; stopped: boolean } {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== '\\' || i + 1 >= text.length) {
      out += c;
      continue;
    }
    if (text[i + 1] === 'c') return { out, stopped: true };
    // echo's octal escape is \0NNN alone: \101 stays as written (printf's %b takes \NNN too).
    const { text: piece, next } = /[1-7]/.test(text[i + 1]!)
      ? { text: '\\', next: i + 1 }
      : escapeAt(text, i + 1, 'echo', utf8);
    out += piece;
    i = next - 1;
  }
  return { out, stopped: false };
}

// pwd [-LP]: the logical directory ($PWD as the shell keeps it), or the physical one.
export async function pwd(ctx: BuiltinContext): Promise<number> {
  let physical = ctx.sh.option('physical');
  for (const arg of ctx.args) {
    if (arg === '-P') physical = true;
    else if (arg === '-L') physical = false;
    else if (arg.startsWith('-') && arg !== '-')
      return ctx.fail(`${arg}: invalid option\npwd: usage: pwd [-LP]`, 2);
  }
  let dir = ctx.sh.cwd;
  if (physical) {
    try {
      dir = Buffer.from(fs.realpathSync.native(Buffer.from(dir, 'latin1')), 'binary').toString('latin1');
    } catch {
      return ctx.fail('error retrieving current directory: No such file or directory');
    }
  }
  await ctx.out(`${dir}\n`);
  return ctx.finish(0);
}

// A variable as the oracle takes it when it is in the environment ("=value"; "" when it is not):
// %(...)T reads TZ from there.
function exportedField(ctx: BuiltinContext, name: string): string {
  const variable = ctx.sh.vars.get(name);
  return variable?.attrs.exported && variable.value?.kind === 'scalar' ? `=${variable.value.value}` : '';
}

// printf, by bash's own (the oracle): its formats, numbers, %b, %q and messages are bash's.
export async function printf(ctx: BuiltinContext): Promise<number> {
  let args = ctx.args;
  // After `--`, a word that starts with - is the format (printf -- '- %s\n' a).
  const ended = args[0] === '--';
  if (ended) args = args.slice(1);
  let target: string | null = null;
  if (!ended && args[0] === '-v') {
    target = args[1] ?? null;
    if (target === null)
      return ctx.fail(
        '-v: option requires an argument\nprintf: usage: printf [-v var] format [arguments]',
        2,
      );
    args = args.slice(2);
    if (args[0] === '--') args = args.slice(1);
    if (!/^[A-Za-z_][A-Za-z0-9_]*(\[.+\])?$/s.test(target))
      return ctx.fail(`\`${target}': not a valid identifier`, 2);
  } else if (!ended && args[0]?.startsWith('-') && args[0] !== '-') {
    return ctx.fail(`${args[0]}: invalid option\nprintf: usage: printf [-v var] format [arguments]`, 2);
  }
  if (args.length === 0) return ctx.usage('printf [-v var] format [arguments]');
  const dir = ctx.r.rt.scratch();
  const out = path.join(dir, 'printf.out');
  const err = path.join(dir, 'printf.err');
  // The oracle's printf reads `-v NAME` or `--` first, then the format.
  const mode = target === null ? ['--'] : ['-v', target];
  const [status] = await ctx.r.rt.oracle.ask('printf', [
    out,
    err,
    ...localeFields(ctx.r.ex.env),
    exportedField(ctx, 'TZ'),
    ...mode,
    ...args,
  ]);
  const printed = fs.readFileSync(out).toString('latin1');
  const errors = fs.readFileSync(err).toString('latin1');
  if (errors)
    await ctx.err(
      errors.replace(/^[^:\n]*: line \d+: /gm, `${ctx.sh.messageName()}: line ${ctx.sh.lineno}: `),
    );
  if (target === null) await ctx.out(printed);
  else {
    const assigned = await ctx.r.assignNamed(target, printed);
    if (assigned !== 0) return assigned;
  }
  return ctx.finish(Number(status ?? 1));
}
