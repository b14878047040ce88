import fs from 'node:fs';
import path from 'node:path';
import { MARKER_NAME } from '../teardown/marker.js';

// What one agent session carries from one command to the next, as an agent's own shell does: the
// directory, the exported variables (those that differ from the server's own environment), and
// shell variables (kept for the shell front end; the bash fallback cannot report them).
export interface ShellState {
  cwd: string;
  env: Record<string, string>;
  vars: Record<string, string>;
}

// Set by bash itself or by safe-run, never by the command: not part of what a session exports.
const NOT_EXPORTED_BY_COMMAND = new Set(['SHLVL', '_', 'PWD', 'OLDPWD', MARKER_NAME]);

// The bash fallback writes its final directory and environment here through an EXIT trap, so the
// next call starts where this one ended. The files live in a private directory of the session.
export interface StateFiles {
  cwd: string;
  env: string;
}

export function stateFilesIn(dir: string): StateFiles {
  return { cwd: path.join(dir, 'cwd'), env: path.join(dir, 'env') };
}

export function clearStateFiles(files: StateFiles): void {
  fs.rmSync(files.cwd, { force: true });
  fs.rmSync(files.env, { force: true });
}

// Single quotes for bash: the only character that needs care inside them is the quote itself.
export function quoteForBash(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

// The first line of the fallback script: on any exit (the end, `exit N`, a fatal signal) bash writes
// $PWD and its exported environment (NUL-separated) to the state files. The exit status is kept.
export function stateTrap(files: StateFiles): string {
  const body = `builtin printf '%s' "$PWD" > ${quoteForBash(files.cwd)}; command -p env -0 > ${quoteForBash(files.env)}`;
  return `trap ${quoteForBash(body)} EXIT`;
}

// The state the fallback left, or null when it left none (the command replaced the EXIT trap or
// bash was killed with SIGKILL): then the session keeps the state it had.
export function readStateFiles(files: StateFiles, before: ShellState): ShellState | null {
  let cwd: string;
  let dump: string;
  try {
    cwd = fs.readFileSync(files.cwd, 'utf8');
    dump = fs.readFileSync(files.env, 'utf8');
  } catch {
    return null;
  }
  if (cwd.length === 0) return null;
  const env: Record<string, string> = {};
  for (const entry of dump.split('\0')) {
    const at = entry.indexOf('=');
    if (at <= 0) continue;
    const name = entry.slice(0, at);
    const value = entry.slice(at + 1);
    if (NOT_EXPORTED_BY_COMMAND.has(name) || process.env[name] === value) continue;
    env[name] = value;
  }
  return { cwd, env, vars: before.vars };
}
