import fs from 'node:fs';
import { scalarOf } from '../../expand/variable.js';
import type { Bytes } from '../../syntax/source.js';
import type { BuiltinContext } from './context.js';

const ERRORS: Record<string, string> = {
  ENOENT: 'No such file or directory',
  ENOTDIR: 'Not a directory',
  EACCES: 'Permission denied',
  ELOOP: 'Too many levels of symbolic links',
  ENAMETOOLONG: 'File name too long',
};

// cd [-L|-P] [dir]: bash's logical directories (.. removes the last component as written, symbolic
// links kept), CDPATH, `cd -`, and the messages. Only the shell's $PWD changes: programs are started
// there; safe-run's own directory stays as it is.
export async function cd(ctx: BuiltinContext): Promise<number> {
  const { sh } = ctx;
  let physical = sh.option('physical');
  let args = ctx.args;
  while (args[0]?.startsWith('-') && args[0] !== '-' && args[0].length > 1) {
    const flag = args[0];
    args = args.slice(1);
    if (flag === '--') break;
    if (!/^-[LPe@]+$/.test(flag))
      return ctx.fail(`${flag}: invalid option\ncd: usage: cd [-L|[-P [-e]] [-@]] [dir]`, 2);
    for (const c of flag.slice(1))
      if (c === 'P') physical = true;
      else if (c === 'L') physical = false;
  }
  if (args.length > 1) return ctx.fail('too many arguments');
  return enter(ctx, args[0], physical);
}

// Changes the shell's directory to `dir` as cd does (HOME when undefined, OLDPWD for -), saying
// why not in the builtin's name.
export async function enter(
  ctx: BuiltinContext,
  given: Bytes | undefined,
  physical: boolean,
): Promise<number> {
  const { sh } = ctx;
  let dir = given;
  let print = false;
  if (dir === undefined) {
    dir = scalarOf(sh.vars.get('HOME')) ?? undefined;
    if (dir === undefined) return ctx.fail('HOME not set');
  } else if (dir === '-') {
    dir = scalarOf(sh.vars.get('OLDPWD')) ?? undefined;
    if (dir === undefined) return ctx.fail('OLDPWD not set');
    print = true;
  }
  if (dir === '') return 0;
  // `cd -` goes to OLDPWD as it reads, without CDPATH, and prints it so (bash's cd.def).
  const viaCdpath = given === '-' ? null : searchCdpath(ctx, dir);
  const target = viaCdpath ?? dir;
  if (viaCdpath !== null) print = true;
  const logical = target.startsWith('/') ? target : `${sh.cwd === '/' ? '' : sh.cwd}/${target}`;
  const candidate = physical ? realpathOf(logical) : canonical(logical);
  const problem = checkDirectory(candidate ?? logical);
  if (problem) return ctx.fail(`${dir}: ${problem}`);
  const next = physical ? candidate! : candidate!;
  const old = sh.cwd;
  sh.cwd = next;
  sh.vars.assign('OLDPWD', old);
  sh.vars.assign('PWD', next);
  if (print) await ctx.out(`${viaCdpath === null ? dir : next}\n`);
  return ctx.finish(0);
}

// A directory in CDPATH that holds `dir` (not for /, ./ or ../ names).
function searchCdpath(ctx: BuiltinContext, dir: Bytes): Bytes | null {
  if (dir.startsWith('/') || dir === '.' || dir === '..' || dir.startsWith('./') || dir.startsWith('../'))
    return null;
  const cdpath = scalarOf(ctx.sh.vars.get('CDPATH'));
  if (!cdpath) return null;
  for (const entry of cdpath.split(':')) {
    if (entry === '') continue;
    const path = `${entry.endsWith('/') ? entry : `${entry}/`}${dir}`;
    if (checkDirectory(path.startsWith('/') ? path : `${ctx.sh.cwd}/${path}`) === null) {
      return path.startsWith('/') ? path : `${ctx.sh.cwd}/${path}`;
    }
  }
  return null;
}

// /a/./b//c/../d as bash makes it: . and empty components dropped, .. removing the one before.
function canonical(path: Bytes): Bytes {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}

function realpathOf(path: Bytes): Bytes | null {
  try {
    return fs.realpathSync.native(Buffer.from(path, 'latin1'), { encoding: 'buffer' }).toString('latin1');
  } catch {
    return null;
  }
}

// Why `path` is not a directory one can enter, as bash says it; null when it is one.
function checkDirectory(path: Bytes): string | null {
  const name = Buffer.from(path, 'latin1');
  try {
    if (!fs.statSync(name).isDirectory()) return 'Not a directory';
    fs.accessSync(name, fs.constants.X_OK);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
    return ERRORS[code] ?? code;
  }
}
