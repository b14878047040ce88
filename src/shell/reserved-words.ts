import type { Word } from '../model/shell-syntax.js';
import { refuseConstruct, refuseSyntax } from './refuse.js';

// What bash makes of a reserved word in command position, by the name people know it by.
const CONSTRUCTS = new Map<string, string>([
  ['if', 'if statement'],
  ['for', 'for loop'],
  ['while', 'while loop'],
  ['until', 'until loop'],
  ['select', 'select loop'],
  ['case', 'case statement'],
  ['function', 'function definition'],
  ['{', 'group { ...; }'],
  ['[[', 'conditional [[ ... ]]'],
  ['!', 'negation !'],
  ['time', 'time keyword'],
  ['coproc', 'coproc'],
]);
const STRAY = new Set(['then', 'else', 'elif', 'fi', 'do', 'done', 'esac', 'in', '}', ']]']);

// Reserved words count only when written unquoted in command position. The raw text decides, not the
// parts: `[[` scans as a glob pattern and `{` as a brace, yet bash reads both as reserved words (and
// any quoting or escape makes the raw text differ from the word).
export function checkCommandWord(word: Word): void {
  const construct = CONSTRUCTS.get(word.raw);
  if (construct !== undefined) {
    refuseConstruct('syntax.reserved', construct, word.col, `(${show(word.raw)}) is bash syntax`);
  }
  if (STRAY.has(word.raw)) {
    refuseSyntax(
      'syntax.reserved',
      word.col,
      `"${word.raw}" at column ${word.col} is a bash reserved word out of place (a syntax error in bash); quote it ("${word.raw}") to run a program by that name`,
    );
  }
}

// The expansion helper's own functions and variables (expand-words.ts): a user's assignment to one
// would collide with them (reading one is harmless).
const HELPER_PREFIX = '__sr_';

const APPEND = /^([A-Za-z_][A-Za-z0-9_]*)\+=/;
// NAME[subscript]=value (or +=) before the command: bash assigns an array element.
const ELEMENT = /^([A-Za-z_][A-Za-z0-9_]*)\[.*\]\+?=/s;

// A word before the command name (or the name itself): forms bash reads as assignments safe-run does
// not make, and a `!` that cannot negate (a pipeline's leading ones are read before its first command,
// so one here follows a `|`, unless NAME=value words or redirections came first, when bash runs a
// command named `!`).
export function checkLeadingWord(word: Word, afterOthers: boolean): void {
  const append = APPEND.exec(word.raw);
  if (append) refuseConstruct('syntax.assignment', `${append[1]}+=`, word.col, 'appends to a variable');
  const element = ELEMENT.exec(word.raw);
  if (element) refuseConstruct('syntax.assignment', `${element[1]}[`, word.col, 'assigns an array element');
  if (word.raw === '!' && !afterOthers) {
    refuseSyntax(
      'syntax.reserved',
      word.col,
      `"!" at column ${word.col} after a "|" is a syntax error in bash; to negate the pipeline, put ! before all of it (! a | b)`,
    );
  }
}

function show(raw: string): string {
  return `"${raw}"`;
}

// Names bash will not let a command line assign as written (checked against bash 5.2).
const READ_ONLY = new Set(['BASHOPTS', 'BASH_VERSINFO', 'EUID', 'PPID', 'SHELLOPTS', 'UID']);

const SPECIAL =
  /^(BASH_ARGC|BASH_ARGV|BASH_LINENO|BASH_SOURCE|FUNCNAME|GROUPS|_|RANDOM|SRANDOM|SECONDS|LINENO|BASHPID|HISTCMD|EPOCHSECONDS|EPOCHREALTIME|BASH_COMMAND|BASH_SUBSHELL|PIPESTATUS|DIRSTACK|IFS|SHLVL|PWD|OLDPWD|BASH_ENV|ENV|POSIXLY_CORRECT|CDPATH|GLOBIGNORE|BASH_XTRACEFD|HISTFILE|TMOUT)$/;

// Why bash does not treat `name` as an ordinary variable when a command line assigns or exports it,
// or null when it does.
export function specialName(name: string): string | null {
  if (name.startsWith(HELPER_PREFIX)) return `${name}, a name safe-run's expansion helper uses itself`;
  if (READ_ONLY.has(name)) return `${name}, which is read-only in bash`;
  if (SPECIAL.test(name)) return `${name}, which bash treats specially`;
  return null;
}

export function checkAssignedName(name: string, col: number): void {
  const special = specialName(name);
  if (special !== null) refuseConstruct('syntax.assignment', `${name}=`, col, `assigns ${special}`);
}
