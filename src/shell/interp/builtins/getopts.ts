import { scalarOf } from '../../expand/vars.js';
import type { BuiltinContext } from './context.js';

// getopts OPTSTRING NAME [ARGS]: the next option of ARGS (or of $@), as bash walks them: OPTIND is
// the next argument, a position inside a group of letters (-abc) is kept between calls, OPTARG is an
// option's value; a leading : in OPTSTRING reports problems through NAME and OPTARG instead of stderr.
export async function getopts(ctx: BuiltinContext): Promise<number> {
  const [spec, name, ...given] = ctx.args;
  if (spec === undefined || name === undefined) return ctx.fail('usage: getopts optstring name [arg ...]', 2);
  const { sh } = ctx;
  const args = given.length > 0 ? given : sh.positional;
  const silent = spec.startsWith(':');
  const optindText = scalarOf(sh.vars.get('OPTIND')) ?? '1';
  let optind = /^[0-9]+$/.test(optindText) ? Number(optindText) : 1;
  if (optind !== sh.getopts.optind) sh.getopts = { optind, char: 0 };
  let char = sh.getopts.char;
  const done = (): number => {
    sh.vars.assign(name, '?');
    sh.vars.assign('OPTIND', String(optind));
    sh.getopts = { optind, char: 0 };
    return 1;
  };
  if (char === 0) {
    const arg = args[optind - 1];
    if (arg === undefined || !arg.startsWith('-') || arg === '-') return done();
    if (arg === '--') {
      optind++;
      return done();
    }
    char = 1;
  }
  const arg = args[optind - 1]!;
  const c = arg[char]!;
  char++;
  if (char >= arg.length) {
    optind++;
    char = 0;
  }
  const at = spec.indexOf(c, silent ? 1 : 0);
  const save = (letter: string) => {
    sh.vars.assign(name, letter);
    sh.vars.assign('OPTIND', String(optind));
    sh.getopts = { optind, char };
    return 0;
  };
  if (at < 0 || c === ':') {
    if (silent) sh.vars.assign('OPTARG', c);
    else {
      sh.vars.unset('OPTARG');
      await ctx.err(`${sh.arg0}: illegal option -- ${c}\n`);
    }
    return save('?');
  }
  if (spec[at + 1] !== ':') {
    sh.vars.unset('OPTARG');
    return save(c);
  }
  if (char !== 0) {
    sh.vars.assign('OPTARG', arg.slice(char));
    optind++;
    char = 0;
  } else if (optind <= args.length) {
    sh.vars.assign('OPTARG', args[optind - 1]!);
    optind++;
  } else {
    if (silent) {
      sh.vars.assign('OPTARG', c);
      return save(':');
    }
    sh.vars.unset('OPTARG');
    await ctx.err(`${sh.arg0}: option requires an argument -- ${c}\n`);
    return save('?');
  }
  return save(c);
}
