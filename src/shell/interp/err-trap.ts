import type { Command } from '../syntax/nodes.js';
import type { RunnerApi } from './api.js';

// Shells running their ERR trap now: a command failing inside the trap does not run it again.
const inTrap = new WeakSet<object>();

// bash's ERR trap: run after a simple command, a pipeline or a subshell fails, where set -e would
// apply (not in an if/while/until condition, a && or || operand but the last, or a ! pipeline), and
// not in a function called with it set unless set -E: function-call.ts). Only when one was set as
// the command started (`trapped`, bash's was_error_trap): a function that sets it runs none for its
// own call. $? in the trap is the failed command's status, and is that status again after it.
export async function runErrTrap(r: RunnerApi, status: number, trapped = true): Promise<void> {
  const { sh } = r;
  if (status === 0 || sh.errexitIgnored > 0 || inTrap.has(sh) || !trapped) return;
  const action = sh.traps.get('ERR');
  if (action === undefined || action === '') return;
  inTrap.add(sh);
  try {
    await r.runText(action, { label: 'trap', firstLine: r.sh.lineno });
  } finally {
    inTrap.delete(sh);
    sh.status = status;
    // In an EXIT trap, a bare `exit` after this gives $? (bash's running_trap is reset by this trap).
    sh.exitTrapStatus = null;
  }
}

// Whether an ERR trap is set (not ignored), as a command starts.
export function errTrapSet(sh: RunnerApi['sh']): boolean {
  return (sh.traps.get('ERR') ?? '') !== '';
}

// Whose status sets PIPESTATUS and counts for errexit and the ERR trap as a simple command's.
export const SIMPLE_LIKE = new Set<Command['kind']>(['simple', 'subshell', 'arith', 'cond']);
