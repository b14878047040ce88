import type { SimpleCommand } from '../model/shell-syntax.js';
import { assignmentOf } from './assignment.js';
import { refuseConstruct } from './refuse.js';
import { checkAssignedName, specialName } from './reserved-words.js';
import type { ShellState, StateAssign } from './shell-state.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)(\+?)=/;

// The variables bash sets itself when it starts (`env -i bash -c 'compgen -v'`, bash 5.2). `export
// NAME` of one that the state does not hold gives the programs bash's value, which safe-run does not
// know.
const SET_BY_BASH = new Set([
  'BASH',
  'BASHOPTS',
  'BASHPID',
  'BASH_ALIASES',
  'BASH_ARGC',
  'BASH_ARGV',
  'BASH_ARGV0',
  'BASH_CMDS',
  'BASH_COMMAND',
  'BASH_EXECUTION_STRING',
  'BASH_LINENO',
  'BASH_LOADABLES_PATH',
  'BASH_SOURCE',
  'BASH_SUBSHELL',
  'BASH_VERSINFO',
  'BASH_VERSION',
  'COMP_WORDBREAKS',
  'DIRSTACK',
  'EPOCHREALTIME',
  'EPOCHSECONDS',
  'EUID',
  'GROUPS',
  'HISTCMD',
  'HOSTNAME',
  'HOSTTYPE',
  'IFS',
  'LINENO',
  'MACHTYPE',
  'OPTERR',
  'OPTIND',
  'OSTYPE',
  'PATH',
  'PPID',
  'PS4',
  'PWD',
  'RANDOM',
  'SECONDS',
  'SHELL',
  'SHELLOPTS',
  'SHLVL',
  'SRANDOM',
  'TERM',
  'UID',
  '_',
]);

// What one argument of `export` does once expanded, as bash's export builtin reads it: NAME=value
// assigns and exports, NAME exports the variable as it is. Refuses what safe-run cannot do as bash
// does: an argument that is no variable name (bash prints an error and the step fails), NAME+=value,
// and a name bash treats specially. With `state` (while the list runs), also a name bash sets
// itself that the state does not hold; `known` are the names the same export assigned before.
export function exportArgOf(
  arg: string,
  col: number,
  state: ShellState | null,
  known: ReadonlySet<string> = new Set(),
): StateAssign {
  const assignment = ASSIGNMENT.exec(arg);
  if (assignment) {
    const name = assignment[1]!;
    if (assignment[2]) refuseConstruct('syntax.assignment', `${name}+=`, col, 'appends to a variable');
    checkAssignedName(name, col);
    return { name, value: arg.slice(assignment[0].length), exported: true };
  }
  if (!NAME.test(arg)) {
    refuseConstruct(
      'syntax.builtin',
      `export ${arg === '' ? "''" : arg}`,
      col,
      'names no variable: bash prints an error and the step fails with 1',
    );
  }
  const special = specialName(arg);
  if (special !== null) refuseConstruct('syntax.builtin', `export ${arg}`, col, `exports ${special}`);
  const held = state !== null && (arg in state.env || arg in state.vars || known.has(arg));
  if (state !== null && !held && SET_BY_BASH.has(arg)) {
    refuseConstruct('syntax.builtin', `export ${arg}`, col, 'exports a variable bash sets itself');
  }
  return { name: arg, value: null, exported: true };
}

// Checks, before anything runs, the arguments of an `export` that is a step of its own as far as the
// text tells: those written without expansions, and NAME+= written as an assignment.
export function checkExportWords(command: SimpleCommand): void {
  for (const word of command.words.slice(1)) {
    const assignment = assignmentOf(word);
    if (assignment) checkAssignedName(assignment.name, word.col);
    else if (word.literal !== null) exportArgOf(word.literal, word.col, null);
    else if (word.parts[0]?.kind === 'literal' && ASSIGNMENT.test(word.parts[0].text)) {
      exportArgOf(word.parts[0].text, word.col, null);
    }
  }
}
