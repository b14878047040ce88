import fs from 'node:fs';

// What a -c text's earlier steps leave to its later ones (and an MCP session to its next call): the
// logical working directory, the exported environment, the shell-only variables, and `$?`.
export interface ShellState {
  // Bash's logical path ($PWD): symbolic links kept as written.
  cwd: string;
  env: Record<string, string>;
  vars: Record<string, string>;
  status: number;
  // Names `export NAME` marked while they had no value: bash exports them once they get one, so a
  // later NAME=value reaches the environment.
  exportedUnset?: string[];
}

// A variable a NAME=value or export step sets: its value (null: export keeps the current one), and
// whether it is exported.
export interface StateAssign {
  name: string;
  value: string | null;
  exported: boolean;
}

// Whether bash would export a variable that NAME=value assigns now: it has the export attribute.
export function isExported(state: ShellState, name: string): boolean {
  return name in state.env || (state.exportedUnset?.includes(name) ?? false);
}

// The state a fresh `bash -c` starts with in `dir`: $PWD is the inherited PWD when it names the same
// directory (bash keeps the logical path), else the directory itself.
export function initialState(dir: string, env: Record<string, string | undefined>): ShellState {
  const clean: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) clean[key] = value;
  let cwd = dir;
  const inherited = clean.PWD;
  if (inherited?.startsWith('/') && sameFile(inherited, dir)) cwd = inherited;
  return { cwd, env: clean, vars: {}, status: 0 };
}

function sameFile(a: string, b: string): boolean {
  try {
    const x = fs.statSync(a);
    const y = fs.statSync(b);
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

// The environment bash gives the programs it starts: PWD exported, SHLVL one more than inherited.
export function childEnvironment(state: ShellState): Record<string, string> {
  return { ...state.env, PWD: state.cwd, SHLVL: String(nextShellLevel(state.env.SHLVL)) };
}

// bash's rule (variables.c adjust_shell_level): a non-number counts as 0, a negative level as 0, and
// 1000 or more restarts at 1.
export function nextShellLevel(inherited: string | undefined): number {
  const text = (inherited ?? '').trim();
  const level = /^[+-]?\d+$/.test(text) ? Number(text) : 0;
  const next = level < 0 ? 0 : level + 1;
  return next >= 1000 ? 1 : next;
}

// The environment of safe-run's own bash helpers: as the shell's, minus what would make bash run
// start-up files (their effect is not part of a word's expansion).
export function helperEnvironment(state: ShellState): Record<string, string> {
  const env: Record<string, string> = { ...state.env, PWD: state.cwd };
  delete env.BASH_ENV;
  delete env.ENV;
  return env;
}
