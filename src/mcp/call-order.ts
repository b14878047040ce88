import type { BuiltinName } from '../model/bash-builtins.js';
import type { Command, Script } from '../shell/syntax/nodes.js';
import { walkStmts } from '../shell/syntax/walk.js';
import type { Plan } from '../types.js';

// Builtins that can change what the next call starts from (its directory, its exported variables),
// directly or by running text.
const STATEFUL: ReadonlySet<string> = new Set<BuiltinName>([
  'cd',
  'pushd',
  'popd',
  'export',
  'declare',
  'typeset',
  'readonly',
  'local',
  'unset',
  'source',
  '.',
  'eval',
  'exec',
  'set',
  'read',
  'mapfile',
  'readarray',
  'getopts',
  'printf',
]);

// Whether a call may change what the next call starts from (the session's directory and exported
// variables): a builtin that can (STATEFUL), a NAME=value step, a command whose name is not written
// as a plain word (an expansion could name any of those), and any text bash runs (the fallback can
// change anything). Calls that cannot run beside each other; the session runs each of them alone, in
// the order they came (session.ts).
export function changesState(plan: Plan): boolean {
  if (!plan.shell) return true;
  return mayChange(plan.shell.script);
}

function mayChange(script: Script): boolean {
  let changes = false;
  walkStmts(script.stmts, {
    command: (command: Command) => {
      if (command.kind !== 'simple') return;
      const first = command.words[0];
      if (!first) {
        if (command.assigns.length > 0) changes = true;
        return;
      }
      const only = first.parts.length === 1 ? first.parts[0]! : null;
      const name = only?.kind === 'lit' || only?.kind === 'sq' ? only.value : null;
      if (name === null || STATEFUL.has(name)) changes = true;
    },
  });
  return changes;
}
