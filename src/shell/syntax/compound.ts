import { findArithEnd, readArithWord } from './arith-text.js';
import { expectWord, readBody } from './bodies.js';
import { readCommand, readFunctionBody } from './commands.js';
import { readCond } from './cond.js';
import { readList } from './lists.js';
import { readFor } from './loops.js';
import type { CaseItem, Compound, FunctionDef, Stmt, Word } from './nodes.js';
import { reservedAt, type Scanner } from './scanner.js';
import { readWord } from './words.js';

// A compound command opened by `word` (a reserved word, or `(`), without its redirections; `function`
// gives a function definition.
export function readCompound(s: Scanner, word: string): Compound | FunctionDef {
  const open = s.i;
  const at = () => s.pos(open);
  switch (word) {
    case '(':
      return s.peek(1) === '(' ? readArithOrSubshell(s, open) : readSubshell(s, open);
    case '{': {
      s.i++;
      const stmts = readBody(s, ['}'], open);
      expectWord(s, '}', open);
      return { kind: 'brace', stmts, redirects: [], start: at(), end: s.pos() };
    }
    case 'if':
      return readIf(s, open);
    case 'while':
    case 'until': {
      s.i += word.length;
      const cond = readBody(s, ['do'], open);
      expectWord(s, 'do', open);
      const body = readBody(s, ['done'], open);
      expectWord(s, 'done', open);
      return { kind: 'while', until: word === 'until', cond, body, redirects: [], start: at(), end: s.pos() };
    }
    case 'for':
    case 'select':
      return readFor(s, open, word);
    case 'case':
      return readCase(s, open);
    case '[[':
      return readCond(s, open);
    case 'function':
      return readFunctionKeyword(s, open);
    default:
      return readCoproc(s, open);
  }
}

function readSubshell(s: Scanner, open: number): Compound {
  s.i++;
  const stmts = readList(s, { words: [], paren: true });
  if (s.peek() !== ')') {
    if (s.done)
      s.fail(open, 'the subshell ( at {at} is never closed (a syntax error in bash)', 'syntax.unterminated');
    s.unexpected();
  }
  if (stmts.length === 0) s.unexpected();
  s.i++;
  return { kind: 'subshell', stmts, redirects: [], start: s.pos(open), end: s.pos() };
}

// (( expr )) when a matching )) closes it; else ( ( ... ) ... ), nested subshells.
function readArithOrSubshell(s: Scanner, open: number): Compound {
  const end = findArithEnd(s.text, open + 2);
  if (end < 0) return readSubshell(s, open);
  s.i = open + 2;
  const expr = readArithWord(s, end);
  s.i = end + 2;
  return { kind: 'arith', expr, redirects: [], start: s.pos(open), end: s.pos() };
}

function readIf(s: Scanner, open: number): Compound {
  s.i += 2;
  const branches: { cond: Stmt[]; body: Stmt[] }[] = [];
  let otherwise: Stmt[] | null = null;
  for (;;) {
    const cond = readBody(s, ['then'], open);
    expectWord(s, 'then', open);
    const body = readBody(s, ['elif', 'else', 'fi'], open);
    branches.push({ cond, body });
    const next = reservedAt(s);
    s.i += next!.length;
    if (next === 'elif') continue;
    if (next === 'else') {
      otherwise = readBody(s, ['fi'], open);
      expectWord(s, 'fi', open);
    }
    break;
  }
  return { kind: 'if', branches, otherwise, redirects: [], start: s.pos(open), end: s.pos() };
}

function readCase(s: Scanner, open: number): Compound {
  s.i += 4;
  s.skipBlanks();
  const word = readWord(s);
  if (!word) s.unexpected();
  s.skipNewlines();
  if (reservedAt(s) !== 'in') s.unexpected();
  s.i += 2;
  const items: CaseItem[] = [];
  for (;;) {
    s.skipNewlines();
    if (reservedAt(s) === 'esac') break;
    if (s.done)
      s.fail(
        open,
        'the case at {at} is never closed: "esac" is missing (a syntax error in bash)',
        'syntax.unterminated',
      );
    items.push(readCaseItem(s));
  }
  s.i += 4;
  return { kind: 'case', word, items, redirects: [], start: s.pos(open), end: s.pos() };
}

function readCaseItem(s: Scanner): CaseItem {
  const start = s.pos();
  if (s.peek() === '(') s.i++;
  const patterns: Word[] = [];
  for (;;) {
    s.skipBlanks();
    const pattern = readWord(s);
    if (!pattern) s.unexpected();
    patterns.push(pattern);
    s.skipBlanks();
    if (s.peek() === '|') s.i++;
    else if (s.peek() === ')') break;
    else s.unexpected();
  }
  s.i++;
  const body = readList(s, { words: ['esac'], caseItem: true });
  let terminator: CaseItem['terminator'] = ';;';
  if (s.at(';;&')) terminator = ';;&';
  else if (s.at(';&')) terminator = ';&';
  if (s.at(';;') || s.at(';&')) s.i += terminator.length;
  return { patterns, body, terminator, start, end: s.pos() };
}

function readFunctionKeyword(s: Scanner, open: number): FunctionDef {
  s.i += 8;
  s.skipBlanks();
  const nameWord = readWord(s);
  const only = nameWord?.parts.length === 1 ? nameWord.parts[0]! : null;
  if (!nameWord || only?.kind !== 'lit') s.unexpected();
  s.skipBlanks();
  if (s.peek() === '(') {
    s.i++;
    s.skipBlanks();
    if (s.peek() !== ')') s.unexpected();
    s.i++;
  }
  return readFunctionBody(s, only.value, true, open);
}

function readCoproc(s: Scanner, open: number): Compound {
  s.i += 6;
  s.skipBlanks();
  const body = readCommand(s);
  if (!body) s.unexpected();
  return { kind: 'coproc', name: null, body, redirects: [], start: s.pos(open), end: s.pos() };
}
