import type { Command } from '../syntax/nodes.js';
import type { RunnerApi } from './api.js';

// Shells running their ERR trap now: a command failing inside the trap does not run it again.
const inTrap = new WeakSet<object>();

// bash's ERR trap: run after a simple command, a pipeline or a subshell fails, where set -e would
// apply (not in an if/while/until condition, a && or || operand but the last, or a ! pipeline), and
// not inside a function unless set -E (errtrace). $? in the trap is the failed command's status, and
// is that status again after it.
export async function runErrTrap(r: RunnerApi, status: number): Promise<void> {
  const { sh } = r;
  if (status === 0 || sh.errexitIgnored > 0 || inTrap.has(sh)) return;
  const action = sh.traps.get('ERR');
  if (action === undefined || action === '') return;
  if (sh.funcNames.length > 0 && !sh.option('errtrace')) return;
  inTrap.add(sh);
  try {
    await r.runText(action, { label: 'trap' });
  } finally {
    inTrap.delete(sh);
    sh.status = status;
  }
}

// Whose status sets PIPESTATUS and counts for errexit and the ERR trap as a simple command's.
export const SIMPLE_LIKE = new Set<Command['kind']>(['simple', 'subshell', 'arith', 'cond']);
