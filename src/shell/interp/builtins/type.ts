import fs from 'node:fs';
import path from 'node:path';
import { BASH_DEFAULT_PATH, EXECVP_DEFAULT_PATH, searchPath } from '../../../engine/resolve/search-path.js';
import { BUILTIN_NAMES } from '../../../model/bash-builtins.js';
import { RESERVED_WORDS } from '../../../model/bash-reserved-words.js';
import { scalarOf } from '../../expand/variable.js';
import { type Bytes, fromBytes } from '../../syntax/source.js';
import type { BuiltinContext } from './context.js';
import { FUNCTION_BODY } from './declare-functions.js';

interface Kind {
  kind: 'keyword' | 'function' | 'builtin' | 'file';
  path?: string;
  // Found in the table of programs the shell ran (hash-table.ts).
  hashed?: boolean;
}

interface Lookup {
  // Functions and reserved words count (not for command's own search, nor type -f).
  functions: boolean;
  // Every kind the name has and every file of its name on PATH (type -a), not the first only.
  all: boolean;
  // Only files, searched for even when a builtin has the name (type -P).
  files: boolean;
  // The PATH to search (command -p: the standard one).
  pathValue?: string;
}

// What a name is, in the order bash looks: a reserved word, a function, a builtin, a file on PATH
// (a name with a slash: itself, when it is an executable file).
export function kindsOf(ctx: BuiltinContext, name: Bytes, lookup: Lookup): Kind[] {
  const kinds: Kind[] = [];
  if (!lookup.files) {
    if (lookup.functions && RESERVED_WORDS.has(name)) kinds.push({ kind: 'keyword' });
    if (lookup.functions && ctx.sh.functions.has(name)) kinds.push({ kind: 'function' });
    if (BUILTIN_NAMES.has(name)) kinds.push({ kind: 'builtin' });
  }
  if (kinds.length > 0 && !lookup.all) return kinds;
  if (name.includes('/')) {
    const full = path.resolve(fromBytes(ctx.sh.cwd), fromBytes(name));
    if (isExecutableFile(full)) kinds.push({ kind: 'file', path: fromBytes(name) });
    return kinds;
  }
  const hashed =
    lookup.all || lookup.pathValue ? undefined : ctx.sh.hashed.get(name, scalarOf(ctx.sh.vars.get('PATH')));
  if (hashed) return [...kinds, { kind: 'file', path: hashed.path, hashed: true }];
  const pathValue = lookup.pathValue ?? fromBytes(scalarOf(ctx.sh.vars.get('PATH')) ?? BASH_DEFAULT_PATH);
  const home = scalarOf(ctx.sh.vars.get('HOME'));
  const entries = lookup.all ? pathValue.split(':') : [pathValue];
  for (const entry of entries) {
    const found = searchPath(
      fromBytes(name),
      entry,
      fromBytes(ctx.sh.cwd),
      home === null ? undefined : fromBytes(home),
      'bash',
    );
    if (found.kind === 'found' && !kinds.some((k) => k.path === found.path))
      kinds.push({ kind: 'file', path: found.path });
  }
  return kinds;
}

function isExecutableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function describe(name: Bytes, kind: Kind): string {
  if (kind.kind === 'keyword') return `${name} is a shell keyword`;
  if (kind.kind === 'function') return `${name} is a function`;
  if (kind.kind === 'builtin') return `${name} is a shell builtin`;
  return kind.hashed ? `${name} is hashed (${kind.path})` : `${name} is ${kind.path}`;
}

// command [-pVv] NAME [ARG...]: -v the name or path it would run, -V what it is; else NAME run
// without looking for a function. -v and -V: 0 when one name was found.
export async function command(ctx: BuiltinContext): Promise<number> {
  let k = 0;
  let flags = '';
  for (; k < ctx.args.length && /^-[pvV]*$/.test(ctx.args[k]!) && ctx.args[k] !== '-'; k++) {
    flags += ctx.args[k]!.slice(1);
  }
  if (ctx.args[k] === '--') k++;
  else if (ctx.args[k]?.startsWith('-') && ctx.args[k] !== '-' && !/^-[pvV]*$/.test(ctx.args[k]!)) {
    const bad = ctx.args[k]!.slice(1).replace(/[pvV]/g, '')[0] ?? '-';
    return ctx.fail(`-${bad}: invalid option\ncommand: usage: command [-pVv] command [arg ...]`, 2);
  }
  const names = ctx.args.slice(k);
  const pathValue = flags.includes('p') ? EXECVP_DEFAULT_PATH : undefined;
  if (!flags.includes('v') && !flags.includes('V')) {
    if (names.length === 0) return 0;
    return ctx.r.runCommandWords(names, { functions: false });
  }
  const lookup = { functions: true, all: false, files: false, pathValue };
  const kinds = names.map((name) => kindsOf(ctx, name, lookup)[0]);
  if (flags.includes('V') && kinds.some((kind) => kind?.kind === 'function')) ctx.refuse(FUNCTION_BODY);
  for (const [i, name] of names.entries()) {
    const kind = kinds[i];
    if (!kind) {
      if (flags.includes('V')) await ctx.fail(`${name}: not found`);
    } else if (flags.includes('V')) await ctx.out(`${describe(name, kind)}\n`);
    else await ctx.out(`${kind.path ?? name}\n`);
  }
  return ctx.finish(kinds.some((kind) => kind !== undefined) ? 0 : 1);
}

// type [-afptP] NAME...: what each name is (-t its kind, -p/-P its file); 1 when one is not found.
export async function type(ctx: BuiltinContext): Promise<number> {
  let flags = '';
  let k = 0;
  for (; k < ctx.args.length && /^-./.test(ctx.args[k]!) && ctx.args[k] !== '--'; k++) {
    const bad = ctx.args[k]!.slice(1).replace(/[afptP]/g, '')[0];
    if (bad !== undefined)
      return ctx.fail(`-${bad}: invalid option\ntype: usage: type [-afptP] name [name ...]`, 2);
    flags += ctx.args[k]!.slice(1);
  }
  if (ctx.args[k] === '--') k++;
  const files = flags.includes('P');
  const lookup = { functions: !flags.includes('f'), all: flags.includes('a'), files };
  const names = ctx.args.slice(k);
  const found = names.map((name) => kindsOf(ctx, name, lookup));
  if (!/[tpP]/.test(flags) && found.flat().some((kind) => kind.kind === 'function'))
    ctx.refuse(FUNCTION_BODY);
  let status = 0;
  for (const [i, name] of names.entries()) {
    const kinds = found[i]!;
    if (kinds.length === 0) {
      status = 1;
      if (!/[tpP]/.test(flags)) await ctx.fail(`${name}: not found`);
      continue;
    }
    for (const kind of kinds) {
      if (files || flags.includes('p')) {
        if (kind.path) await ctx.out(`${kind.path}\n`);
      } else if (flags.includes('t')) await ctx.out(`${kind.kind}\n`);
      else await ctx.out(`${describe(name, kind)}\n`);
    }
  }
  return ctx.finish(status);
}

// builtin NAME [ARG...]: the builtin NAME, whatever function has its name.
export async function builtinBuiltin(ctx: BuiltinContext): Promise<number> {
  let args = ctx.args;
  if (args[0] === '--') args = args.slice(1);
  else if (args[0]?.startsWith('-') && args[0] !== '-')
    return ctx.fail(`${args[0]}: invalid option\nbuiltin: usage: builtin [shell-builtin [arg ...]]`, 2);
  if (args.length === 0) return 0;
  if (!BUILTIN_NAMES.has(args[0]!)) return ctx.fail(`${args[0]}: not a shell builtin`);
  return ctx.r.runCommandWords(args, { functions: false });
}
