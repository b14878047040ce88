import type { Command, Script, SimpleCommand } from './syntax/nodes.js';
import { walkStmts } from './syntax/walk.js';

// Every simple command of a text in the order written (nested ones included): --ok-codes names them
// by their program as written, or by their 1-based place in this list.
export function writtenCommands(script: Script): SimpleCommand[] {
  const out: SimpleCommand[] = [];
  walkStmts(script.stmts, {
    command: (command: Command) => {
      if (command.kind === 'simple' && command.words.length > 0) out.push(command);
    },
  });
  return out;
}

// The program a command names as written (its first word's text), for --ok-codes and stage names.
export function writtenProgram(command: SimpleCommand): string {
  const first = command.words[0]!;
  const only = first.parts.length === 1 ? first.parts[0]! : null;
  if (only?.kind === 'lit' || only?.kind === 'sq') return only.value;
  return first.raw ?? '?';
}
