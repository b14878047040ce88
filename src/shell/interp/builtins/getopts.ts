import { scalarOf } from '../../expand/variable.js';
import type { Bytes } from '../../syntax/source.js';
import type { BuiltinContext } from './context.js';

// Where getopts reads: the argument (OPTIND, from 1) and the position inside a group of letters.
interface Cursor {
  optind: number;
  char: number;
}

// getopts OPTSTRING NAME [ARGS]: the next option of ARGS (or of $@), as bash walks them: OPTIND is
// the next argument, a position inside a group of letters (-abc) is kept between calls, OPTARG is an
// option's value; a leading : in OPTSTRING reports problems through NAME and OPTARG instead of stderr.
export async function getopts(ctx: BuiltinContext): Promise<number> {
  const [spec, name, ...given] = ctx.args;
  if (spec === undefined || name === undefined) return ctx.usage('getopts optstring name [arg ...]');
  const { sh } = ctx;
  const args = given.length > 0 ? given : sh.positional;
  const cursor = cursorOf(ctx);
  // Past the arguments' end, OPTIND is put just after it.
  if (cursor.optind > args.length + 1) cursor.optind = args.length + 1;
  const c = nextLetter(args, cursor);
  const answer = c === null ? '?' : await answerFor(ctx, spec, args, c, cursor);
  sh.vars.assign(name, answer);
  sh.vars.assign('OPTIND', String(cursor.optind));
  sh.getopts = { optind: cursor.optind, char: cursor.char };
  return c === null ? 1 : 0;
}

// OPTIND as the shell has it now; the place inside a group only while OPTIND is where getopts left it.
function cursorOf({ sh }: BuiltinContext): Cursor {
  // As bash's atoi reads it: leading blanks, a sign, digits (OPTIND=x is 0); 1 or less starts over.
  const optindText = scalarOf(sh.vars.get('OPTIND')) ?? '1';
  const optind = Math.max(1, Number(/^\s*([+-]?\d+)/.exec(optindText)?.[1] ?? 0));
  if (optind !== sh.getopts.optind) sh.getopts = { optind, char: 0 };
  return { optind, char: sh.getopts.char };
}

// The next option letter, the cursor moved past it; null where the options end (after a --).
function nextLetter(args: readonly Bytes[], cursor: Cursor): string | null {
  if (cursor.char === 0) {
    const arg = args[cursor.optind - 1];
    if (arg === undefined || !arg.startsWith('-') || arg === '-') return null;
    if (arg === '--') {
      cursor.optind++;
      return null;
    }
    cursor.char = 1;
  }
  const arg = args[cursor.optind - 1]!;
  const c = arg[cursor.char]!;
  cursor.char++;
  if (cursor.char >= arg.length) {
    cursor.optind++;
    cursor.char = 0;
  }
  return c;
}

// What NAME is set to for the letter c: c, or ? for an unknown option (OPTARG set or unset as bash
// does, the complaint on stderr unless silent).
async function answerFor(
  ctx: BuiltinContext,
  spec: string,
  args: readonly Bytes[],
  c: string,
  cursor: Cursor,
): Promise<string> {
  const { sh } = ctx;
  const silent = spec.startsWith(':');
  const at = spec.indexOf(c, silent ? 1 : 0);
  if (at < 0 || c === ':') {
    if (silent) sh.vars.assign('OPTARG', c);
    else {
      sh.vars.unset('OPTARG');
      if (optErr(ctx)) await ctx.err(`${sh.arg0}: illegal option -- ${c}\n`);
    }
    return '?';
  }
  if (spec[at + 1] !== ':') {
    sh.vars.unset('OPTARG');
    return c;
  }
  return optionValue(ctx, silent, args, c, cursor);
}

// An option that takes a value: the rest of its group, else the next argument (the cursor moved past
// it); none left is : when silent, else ? and a complaint.
async function optionValue(
  ctx: BuiltinContext,
  silent: boolean,
  args: readonly Bytes[],
  c: string,
  cursor: Cursor,
): Promise<string> {
  const { sh } = ctx;
  if (cursor.char !== 0) {
    sh.vars.assign('OPTARG', args[cursor.optind - 1]!.slice(cursor.char));
    cursor.optind++;
    cursor.char = 0;
    return c;
  }
  if (cursor.optind <= args.length) {
    sh.vars.assign('OPTARG', args[cursor.optind - 1]!);
    cursor.optind++;
    return c;
  }
  if (silent) {
    sh.vars.assign('OPTARG', c);
    return ':';
  }
  sh.vars.unset('OPTARG');
  if (optErr(ctx)) await ctx.err(`${sh.arg0}: option requires an argument -- ${c}\n`);
  return '?';
}

// OPTERR as bash reads it: complaints are said unless it is set to text whose leading number is 0
// (0, 00, abc), as C's atoi reads it.
function optErr({ sh }: BuiltinContext): boolean {
  const value = scalarOf(sh.vars.get('OPTERR'));
  if (value === null || value === '') return true;
  const number = Number.parseInt(value, 10);
  return !Number.isNaN(number) && number !== 0;
}
