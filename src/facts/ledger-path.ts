import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

// Where every safe-run on this machine (for this user) keeps its environment facts:
// $SAFE_RUN_FACTS, else $XDG_STATE_HOME/safe-run/facts.jsonl, else ~/.local/state/safe-run/facts.jsonl.
// A relative $XDG_STATE_HOME is ignored, as the XDG base directory spec requires.
export function defaultLedgerPath(env: Record<string, string | undefined>): string {
  if (env.SAFE_RUN_FACTS) return resolve(env.SAFE_RUN_FACTS);
  const state = env.XDG_STATE_HOME;
  if (state && isAbsolute(state)) return join(state, 'safe-run', 'facts.jsonl');
  return join(env.HOME || homedir(), '.local', 'state', 'safe-run', 'facts.jsonl');
}
