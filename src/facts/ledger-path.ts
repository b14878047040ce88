import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';

// Where every safe-run on this machine (for this user) keeps its environment facts:
// $SAFE_RUN_FACTS, else $XDG_STATE_HOME/safe-run/facts.jsonl, else ~/.local/state/safe-run/facts.jsonl.
// A relative $XDG_STATE_HOME is ignored, as the XDG base directory spec requires.
export function defaultLedgerPath(env: Record<string, string | undefined>): string {
  if (env.SAFE_RUN_FACTS) return resolve(env.SAFE_RUN_FACTS);
  const state = env.XDG_STATE_HOME;
  if (state && isAbsolute(state)) return join(state, 'safe-run', 'facts.jsonl');
  return join(env.HOME || homedir(), '.local', 'state', 'safe-run', 'facts.jsonl');
}

// The command line's ledger: the default one, or none when neither $SAFE_RUN_FACTS nor
// $XDG_STATE_HOME names it and ~/.local lies inside `cwd`, the directory the run works in (a HOME
// that is the project's directory, as sandboxes set it): the ledger's `.local` would appear among
// the text's files (`ls -A`, `find .`, `git add -A`), where bash leaves nothing. Not for cwd /.
export function commandLineLedger(env: Record<string, string | undefined>, cwd: string): string | null {
  const file = defaultLedgerPath(env);
  if (env.SAFE_RUN_FACTS || (env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME))) return file;
  // Run from / (a container's default directory), everything is inside it: the ledger stays.
  const top = realPath(cwd);
  if (top === '/') return file;
  const inside = relative(top, realPath(file));
  return inside.startsWith('..') || isAbsolute(inside) ? file : null;
}

// The path with its longest existing leading part resolved through symbolic links (one system call
// when it exists: this runs at every start of the command line).
function realPath(file: string): string {
  const full = resolve(file);
  const parent = dirname(full);
  try {
    return realpathSync.native(full);
  } catch {
    return parent === full ? full : join(realPath(parent), basename(full));
  }
}
