import type { Stmt, Word } from './nodes.js';
import { walkStmts } from './walk.js';

// bash reads its text a line at a time and runs each line before it reads the next, so a
// `shopt -s extglob` on one line lets the lines after it hold extended patterns (`@(a|b)`). The
// parser reads the whole text first: after each line of the text's own list it asks here whether
// extglob is on for the next. A shopt of that line, anywhere in it (a function's body, a branch),
// turns it on; it is turned off only by a `shopt -u extglob` that is a statement of the line on
// its own. What the run does differs from this only when a line turns it on or off in a way the
// text does not show (eval, source, a branch not taken): a line with an extended pattern read
// while extglob is off is then refused when reached (interp/extglob-check.ts).
export function extglobAfter(line: readonly Stmt[], on: boolean): boolean {
  walkStmts(line, {
    command: (command) => {
      if (command.kind !== 'simple') return;
      const words = command.words.map(literal);
      if (words[0] !== 'shopt' || !words.includes('extglob')) return;
      const flags = words.filter((word) => word?.startsWith('-')).join('');
      if (flags.includes('s')) on = true;
      else if (flags.includes('u') && line.some((stmt) => alone(stmt, command))) on = false;
    },
  });
  return on;
}

function literal(word: Word): string | null {
  const only = word.parts.length === 1 ? word.parts[0]! : null;
  return only?.kind === 'lit' ? only.value : null;
}

// The statement is the command alone: no && or ||, no pipeline, not in the background.
function alone(stmt: Stmt, command: unknown): boolean {
  const { first, rest } = stmt.body;
  return (
    !stmt.background && rest.length === 0 && first.commands.length === 1 && first.commands[0] === command
  );
}
