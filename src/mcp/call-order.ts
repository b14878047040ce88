import type { Plan } from '../types.js';

// Whether a call may change what the next call starts from (the session's directory and exported
// variables): `cd`, `export`, a NAME=value step, a command whose name comes from an expansion (it could
// be any of those), and any text bash runs (the fallback can change anything). Calls that cannot run
// beside each other; the session runs each of them alone, in the order they came (session.ts).
export function changesState(plan: Plan): boolean {
  if (!plan.shell) return true;
  for (const { pipeline } of plan.shell.script.items) {
    for (const command of pipeline.commands) {
      const name = command.words[0];
      if (!name) return true;
      if (name.literal === null || name.literal === 'cd' || name.literal === 'export') return true;
    }
  }
  return false;
}
