import type { BuiltinName } from '../../model/bash-builtins.js';
import { assignOf, readArrayAssign, readSubscriptAssignWord } from './assigns.js';
import type { Command, Compound, FunctionDef, SimpleCommand, Word } from './nodes.js';
import { atRedirect, readRedirect } from './redirects.js';
import { reservedAt, type Scanner } from './scanner.js';
import { readWord } from './words.js';

// Builtins whose NAME=value arguments are assignments (no splitting or globbing; arrays allowed),
// decided by the command word as written, as bash decides at parse time.
const DECLARATION_BUILTINS: ReadonlySet<string> = new Set<BuiltinName>([
  'declare',
  'typeset',
  'export',
  'local',
  'readonly',
]);

const OPENERS = new Set(['if', 'while', 'until', 'for', 'case', 'select', '{', '[[', 'function', 'coproc']);

// One command at the cursor: compound (with its redirections), a function definition, or simple.
// Null when no command starts here.
export function readCommand(s: Scanner): Command | null {
  s.skipBlanks();
  const word = reservedAt(s);
  if (word !== null) {
    if (!OPENERS.has(word)) s.unexpected();
    const compound = s.grammar.compound(s, word);
    return compound.kind === 'function' ? compound : withRedirects(s, compound);
  }
  if (s.peek() === '(') return withRedirects(s, s.grammar.compound(s, '(') as Compound);
  return readSimple(s);
}

function withRedirects<T extends Compound>(s: Scanner, compound: T): T {
  for (;;) {
    s.skipBlanks();
    if (!atRedirect(s)) break;
    compound.redirects.push(readRedirect(s));
    compound.end = s.pos();
  }
  return compound;
}

// bash numbers a simple command ($LINENO, its messages) by the line its parser is on when it has taken
// the first element: where an assignment or a redirection ends, but for a word where the token after
// it ends (bash looks one token ahead there, for NAME ( )): `echo "a<newline>b" $LINENO` says 2.
function readSimple(s: Scanner): SimpleCommand | FunctionDef | null {
  const start = s.pos();
  const command: SimpleCommand = { kind: 'simple', assigns: [], words: [], redirects: [], start, end: start };
  let declaration = false;
  // bash's line for it: 0 until its first element is read, -1 while the token after a first word decides.
  let line = 0;
  for (;;) {
    s.skipBlanks();
    if (atRedirect(s)) {
      if (line === -1) line = s.pos().line;
      command.redirects.push(readRedirect(s));
      if (line === 0) line = command.redirects.at(-1)!.end.line;
      continue;
    }
    const assignable = command.words.length === 0 || declaration;
    const word = (assignable && readSubscriptAssignWord(s)) || readWord(s);
    if (line === -1) line = word ? word.end.line : s.pos().line;
    if (!word) break;
    const assign = assignable ? assignOf(s, word) : null;
    if (assign && s.peek() === '(' && assign.value !== null && assign.value.parts.length === 0) {
      readArrayAssign(s, assign);
      word.end = assign.end;
    }
    if (assign && command.words.length === 0) {
      command.assigns.push(assign);
      if (line === 0) line = word.end.line;
    } else {
      if (line === 0) line = -1;
      command.words.push(word);
      if (command.words.length === 1) {
        declaration = isDeclaration(word);
        if (declaration) command.declArgs = [null];
        s.letArgs = isLiteral(word, 'let');
      } else if (declaration) command.declArgs!.push(assign);
    }
  }
  s.letArgs = false;
  if (command.assigns.length === 0 && command.words.length === 0 && command.redirects.length === 0)
    return null;
  if (line !== start.line) command.line = line;
  // Where its last word, assignment or redirection ends (not the blanks after it).
  for (const part of [...command.assigns, ...command.words, ...command.redirects])
    if (part.end.offset > command.end.offset) command.end = part.end;
  if (s.peek() === '(' && command.words.length === 1 && command.assigns.length === 0) {
    return readFunctionDef(s, command.words[0]!, command);
  }
  if (s.peek() === '(') s.unexpected();
  return command;
}

function isLiteral(word: Word, text: string): boolean {
  const only = word.parts.length === 1 ? word.parts[0]! : null;
  return only?.kind === 'lit' && only.value === text;
}

function isDeclaration(word: Word): boolean {
  const only = word.parts.length === 1 ? word.parts[0]! : null;
  return only?.kind === 'lit' && DECLARATION_BUILTINS.has(only.value);
}

// NAME () compound-command: the word must be a plain name, then ( and ) with blanks only between.
function readFunctionDef(s: Scanner, nameWord: Word, command: SimpleCommand): FunctionDef {
  if (command.redirects.length > 0) s.unexpected();
  const only = nameWord.parts.length === 1 ? nameWord.parts[0]! : null;
  if (only?.kind !== 'lit' || only.value.includes('\\') || only.value.includes('=')) s.unexpected();
  s.i++;
  s.skipBlanks();
  if (s.peek() !== ')') s.unexpected();
  s.i++;
  return readFunctionBody(s, only.value, false, s.local(nameWord.start));
}

// The body of a function: a compound command (with its redirections), after optional newlines.
export function readFunctionBody(s: Scanner, name: string, keyword: boolean, open: number): FunctionDef {
  s.skipNewlines();
  const word = reservedAt(s);
  const isCompound =
    s.peek() === '(' || (word !== null && OPENERS.has(word) && word !== 'function' && word !== 'coproc');
  if (!isCompound) s.unexpected();
  const body = withRedirects(s, s.grammar.compound(s, word ?? '(') as Compound);
  return { kind: 'function', name, keyword, body, start: s.pos(open), end: body.end };
}
