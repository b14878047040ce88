import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BASH_DEFAULT_PATH } from '../../engine/resolve/search-path.js';
import type { ReadOnlyVariable } from '../../model/bash-variables.js';
import { BUILT_IN_VARIABLES, bashVersionInfo } from '../bash-version.js';
import { RandomVariable, SecureRandomVariable } from '../expand/random-variable.js';
import { lazyScalar } from '../expand/variable.js';
import type { Bytes } from '../syntax/source.js';
import { toBytes } from '../syntax/source.js';
import { Shell } from './shell.js';

// What a text starts from: the directory, the environment, shell variables a session kept, $?.
export interface StartState {
  cwd: string;
  env: Record<string, string>;
  vars: Record<string, string>;
  status: number;
  exportedUnset?: string[];
  // Processes outside the text that its `kill` may signal all the same: the MCP session's jobs, which
  // an earlier call started (null: none).
  vouched?: ((pid: number) => boolean) | null;
  // After a run: the names of the functions its shell ended with (the next run does not have them).
  functions?: string[];
}

// The values of bash's read-only variables that the interpreter gives. It gives none to the others:
// BASHOPTS and SHELLOPTS are refused where the text reads them (support.ts); BASH_VERSINFO, like
// BASH_VERSION, reads as unset.
function readOnlyValues(): Partial<Record<ReadOnlyVariable, string>> {
  const uid = String(process.getuid?.() ?? 0);
  return { PPID: String(process.ppid), UID: uid, EUID: String(process.geteuid?.() ?? uid) };
}

// A shell as `bash -c` starts: the environment exported, PWD and SHLVL as bash sets them, IFS, PS4,
// OPTIND, its own read-only variables; then what a session kept; $0 and the arguments.
export function initShell(state: StartState, arg0: Bytes, args: Bytes[]): Shell {
  const sh = new Shell();
  const { vars } = sh;
  // $_ starts as the environment's _ (the path the parent ran), else as bash's own name.
  sh.lastArg = toBytes(state.env._ ?? 'bash');
  for (const [name, value] of Object.entries(state.env)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || name === '_') continue;
    vars.assign(name, toBytes(value));
    vars.target(name).attrs.exported = true;
  }
  sh.cwd = toBytes(state.cwd);
  vars.assign('PWD', sh.cwd);
  vars.target('PWD').attrs.exported = true;
  vars.assign('SHLVL', String(nextShellLevel(state.env.SHLVL)));
  vars.target('SHLVL').attrs.exported = true;
  vars.assign('IFS', ' \t\n');
  vars.assign('PS4', '+ ');
  vars.assign('OPTIND', '1');
  vars.target('OPTIND').attrs.integer = true;
  // (Integers too, as bash's declare -p shows them: -ir.)
  for (const [name, value] of Object.entries(readOnlyValues())) {
    vars.assign(name, value);
    Object.assign(vars.target(name).attrs, { readonly: true, integer: true });
  }
  if (!('HOSTNAME' in state.env)) vars.assign('HOSTNAME', os.hostname());
  // bash's own when the environment has none, not exported: TERM=dumb, SHELL the user's login shell.
  if (!('TERM' in state.env)) vars.assign('TERM', 'dumb');
  if (!('SHELL' in state.env)) vars.assign('SHELL', loginShell());
  // Started without PATH, bash has its default one, not exported; a text that unsets it finds nothing.
  if (!('PATH' in state.env)) {
    vars.assign('PATH', BASH_DEFAULT_PATH);
    sh.defaults.set('PATH', BASH_DEFAULT_PATH);
  }
  builtInVariables(state, sh);
  for (const name of ['IFS', 'PS4', 'OPTIND', 'HOSTNAME', 'OPTERR', 'TERM', 'SHELL']) {
    const value = vars.get(name)?.value;
    if (value?.kind === 'scalar') sh.defaults.set(name, value.value);
  }
  // bash keeps an inherited OLDPWD that names a directory (so `cd -` works); otherwise it starts with
  // OLDPWD exported and unset (variables.c, initialize_shell_variables).
  if (!namesDirectory(state.env.OLDPWD, state.cwd)) {
    vars.unset('OLDPWD');
    vars.target('OLDPWD').attrs.exported = true;
  }
  for (const [name, value] of Object.entries(state.vars)) vars.assign(name, toBytes(value));
  for (const name of state.exportedUnset ?? []) vars.target(name).attrs.exported = true;
  sh.arg0 = arg0;
  sh.positional = args;
  sh.status = state.status;
  return sh;
}

// OPTERR (1, even over the environment's), GROUPS (the group, then the others), and the variables of
// bash's build (MACHTYPE, OSTYPE...) unless the environment has them: asked of bash when first read.
function builtInVariables(state: StartState, sh: Shell): void {
  const { vars } = sh;
  vars.assign('OPTERR', '1');
  const gid = process.getgid?.() ?? 0;
  const groups = [gid, ...(process.getgroups?.() ?? []).filter((group) => group !== gid)];
  vars.unset('GROUPS');
  vars.assignArray(
    'GROUPS',
    groups.map((group) => ({ key: null, value: String(group) })),
    false,
    'indexed',
  );
  // (Whatever the environment gave: bash seeds it itself.)
  vars.define('RANDOM', new RandomVariable());
  vars.define('SRANDOM', new SecureRandomVariable());
  for (const name of BUILT_IN_VARIABLES) {
    if (!(name in state.env))
      vars.define(
        name,
        lazyScalar(() => bashVersionInfo().builtIn[name]),
      );
  }
}

// The login shell of the user safe-run runs as (bash's /bin/sh when the system has no entry for it).
function loginShell(): string {
  try {
    return os.userInfo().shell || '/bin/sh';
  } catch {
    return '/bin/sh';
  }
}

// bash's rule (variables.c adjust_shell_level): a non-number counts as 0, a negative level as 0, and
// 1000 or more restarts at 1.
function nextShellLevel(inherited: string | undefined): number {
  const text = (inherited ?? '').trim();
  const level = /^[+-]?\d+$/.test(text) ? Number(text) : 0;
  const next = level < 0 ? 0 : level + 1;
  return next >= 1000 ? 1 : next;
}

// Whether a value names a directory, relative to the shell's directory (bash stats the value as given).
function namesDirectory(value: string | undefined, cwd: string): boolean {
  if (!value) return false;
  try {
    return fs.statSync(path.resolve(cwd, value)).isDirectory();
  } catch {
    return false;
  }
}
