import type { RunnerApi } from './api.js';
import type { Shell } from './shell.js';

// Shells running their RETURN trap now: a function or a `source` ending inside it runs none.
const inTrap = new WeakSet<object>();

// bash's RETURN trap on entering a function: without set -T (functrace) the function starts with
// none. Gives what puts the caller's back after the call, unless the function set one of its own,
// which then stays (bash's execute_function).
export function enterReturnScope(sh: Shell): () => void {
  const saved = sh.traps.get('RETURN');
  if (saved === undefined || sh.option('functrace')) return () => {};
  sh.traps.delete('RETURN');
  return () => {
    if (!sh.traps.has('RETURN')) sh.traps.set('RETURN', saved);
  };
}

// Runs the RETURN trap as a function or a sourced file ends, in its context: $? in it is the status
// of the last command before (a `return N` does not set it), and $? after it is the caller's again.
export async function runReturnTrap(r: RunnerApi): Promise<void> {
  const { sh } = r;
  const action = sh.traps.get('RETURN');
  if (action === undefined || action === '' || inTrap.has(sh)) return;
  const status = sh.status;
  inTrap.add(sh);
  try {
    await r.runText(action, { label: 'trap', firstLine: sh.lineno });
  } finally {
    inTrap.delete(sh);
    sh.status = status;
  }
}
