import { OPTION_LETTERS, OPTION_NAMES } from '../shell.js';
import type { BuiltinContext } from './context.js';

const BY_LETTER = new Map(OPTION_LETTERS.map(([name, letter]) => [letter, name]));
// Options that change how commands run in ways this interpreter does not do: refused, not ignored.
const UNSUPPORTED = new Set(['verbose', 'monitor', 'posix', 'privileged', 'onecmd', 'keyword']);

// set [-+abefhkmnptuvxBCEHPT] [-+o name] [--] [args]: options, and the positional parameters.
export async function set(ctx: BuiltinContext): Promise<number> {
  const { sh } = ctx;
  const args = ctx.args;
  if (args.length === 0)
    ctx.refuse("lists every variable of the shell, bash's own among them, which safe-run does not do");
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      sh.positional = args.slice(i + 1);
      sh.positionalSets++;
      return 0;
    }
    if (arg === '-' || arg === '+') {
      sh.setOption('xtrace', false);
      sh.setOption('verbose', false);
      if (arg === '-') {
        i++;
        break;
      }
      continue;
    }
    if (!/^[-+]/.test(arg)) break;
    const on = arg[0] === '-';
    for (const c of arg.slice(1)) {
      if (c === 'o') {
        const name = args[i + 1];
        if (name === undefined) return printOptions(ctx, on);
        i++;
        const problem = setNamed(ctx, name, on);
        if (problem !== null) return problem;
        continue;
      }
      const name = BY_LETTER.get(c);
      if (!name)
        return ctx.fail(
          `${arg[0]}${c}: invalid option\nset: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]`,
          2,
        );
      const problem = setNamed(ctx, name, on);
      if (problem !== null) return problem;
    }
  }
  if (i < args.length) {
    sh.positional = args.slice(i);
    sh.positionalSets++;
  }
  return 0;
}

function setNamed(ctx: BuiltinContext, name: string, on: boolean): number | null {
  if (!OPTION_NAMES.includes(name)) {
    void ctx.fail(`${name}: invalid option name`);
    return 2;
  }
  if (UNSUPPORTED.has(name) && on) ctx.refuse(`sets -o ${name}, which safe-run's interpreter does not do`);
  ctx.sh.setOption(name, on);
  return null;
}

// set -o (a table) and set +o (commands that restore the options).
async function printOptions(ctx: BuiltinContext, table: boolean): Promise<number> {
  for (const name of OPTION_NAMES) {
    const on = ctx.sh.option(name);
    if (table) await ctx.out(`${name.padEnd(15)}\t${on ? 'on' : 'off'}\n`);
    else await ctx.out(`set ${on ? '-' : '+'}o ${name}\n`);
  }
  return ctx.finish(0);
}

// The shopt names bash knows; the ones that change expansion or running are honoured.
const SHOPTS = [
  'autocd',
  'assoc_expand_once',
  'cdable_vars',
  'cdspell',
  'checkhash',
  'checkjobs',
  'checkwinsize',
  'cmdhist',
  'compat31',
  'compat32',
  'compat40',
  'compat41',
  'compat42',
  'compat43',
  'compat44',
  'complete_fullquote',
  'direxpand',
  'dirspell',
  'dotglob',
  'execfail',
  'expand_aliases',
  'extdebug',
  'extglob',
  'extquote',
  'failglob',
  'force_fignore',
  'globasciiranges',
  'globskipdots',
  'globstar',
  'gnu_errfmt',
  'histappend',
  'histreedit',
  'histverify',
  'hostcomplete',
  'huponexit',
  'inherit_errexit',
  'interactive_comments',
  'lastpipe',
  'lithist',
  'localvar_inherit',
  'localvar_unset',
  'login_shell',
  'mailwarn',
  'no_empty_cmd_completion',
  'nocaseglob',
  'nocasematch',
  'noexpand_translation',
  'nullglob',
  'patsub_replacement',
  'progcomp',
  'progcomp_alias',
  'promptvars',
  'restricted_shell',
  'shift_verbose',
  'sourcepath',
  'varredir_close',
  'xpg_echo',
];
const UNSUPPORTED_SHOPTS = new Set([
  'expand_aliases',
  'extdebug',
  'lastpipe',
  'localvar_inherit',
  'compat31',
  'compat32',
  'compat40',
  'compat41',
  'compat42',
  'compat43',
  'compat44',
]);

export async function shopt(ctx: BuiltinContext): Promise<number> {
  const { sh } = ctx;
  let mode: 's' | 'u' | 'q' | 'p' | null = null;
  let quiet = false;
  let useSetO = false;
  const names: string[] = [];
  for (const arg of ctx.args) {
    if (/^-[suqpo]+$/.test(arg) && names.length === 0) {
      for (const c of arg.slice(1)) {
        if (c === 'q') quiet = true;
        else if (c === 'o') useSetO = true;
        else mode = c as 's' | 'u' | 'p';
      }
    } else names.push(arg);
  }
  if (useSetO) return shoptSetO(ctx, mode, quiet, names);
  let status = 0;
  for (const name of names.length > 0 ? names : SHOPTS) {
    if (!SHOPTS.includes(name)) {
      status = await ctx.fail(`${name}: invalid shell option name`);
      continue;
    }
    if (mode === 's' || mode === 'u') {
      if (UNSUPPORTED_SHOPTS.has(name) && mode === 's')
        ctx.refuse(`sets ${name}, which safe-run's interpreter does not do`);
      if (mode === 's') sh.shopts.add(name);
      else sh.shopts.delete(name);
      continue;
    }
    const on = sh.shopts.has(name);
    if (!on && names.length > 0) status = 1;
    if (quiet) continue;
    if (mode === 'p') await ctx.out(`shopt ${on ? '-s' : '-u'} ${name}\n`);
    else await ctx.out(`${name.padEnd(15)}\t${on ? 'on' : 'off'}\n`);
  }
  return ctx.finish(status);
}

// shopt -o: the options of set -o by their names. A name it does not know is said and skipped, and
// the status stays 0 (bash's).
async function shoptSetO(
  ctx: BuiltinContext,
  mode: 's' | 'u' | 'q' | 'p' | null,
  quiet: boolean,
  names: string[],
): Promise<number> {
  let status = 0;
  for (const name of names.length > 0 ? names : OPTION_NAMES) {
    if (!OPTION_NAMES.includes(name)) {
      await ctx.fail(`${name}: invalid option name`);
      continue;
    }
    if (mode === 's' || mode === 'u') {
      const problem = setNamed(ctx, name, mode === 's');
      if (problem !== null) return problem;
      continue;
    }
    const on = ctx.sh.option(name);
    if (!on && names.length > 0) status = 1;
    if (quiet) continue;
    if (mode === 'p') await ctx.out(`set ${on ? '-' : '+'}o ${name}\n`);
    else await ctx.out(`${name.padEnd(15)}\t${on ? 'on' : 'off'}\n`);
  }
  return ctx.finish(status);
}
