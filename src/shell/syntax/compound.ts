import { findArithEnd, readArithWord } from './arith-text.js';
import { readCommand, readFunctionBody } from './commands.js';
import { readCond } from './cond.js';
import { readList } from './lists.js';
import type { CaseItem, Compound, FunctionDef, Stmt, Word } from './nodes.js';
import { isName, reservedAt, type Scanner } from './scanner.js';
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
      const stmts = readBody(s, ['}'], open, '{');
      expectWord(s, '}', open);
      return { kind: 'brace', stmts, redirects: [], start: at(), end: s.pos() };
    }
    case 'if':
      return readIf(s, open);
    case 'while':
    case 'until': {
      s.i += word.length;
      const cond = readBody(s, ['do'], open, word);
      expectWord(s, 'do', open);
      const body = readBody(s, ['done'], open, 'do');
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

// A list that must not be empty, up to one of `ends`.
function readBody(s: Scanner, ends: string[], open: number, opener: string): Stmt[] {
  const stmts = readList(s, { words: ends });
  if (s.done)
    s.fail(open, `"${opener}" at {at} is never closed (a syntax error in bash)`, 'syntax.unterminated');
  if (stmts.length === 0) s.unexpected();
  return stmts;
}

function expectWord(s: Scanner, word: string, open: number): void {
  s.skipBlanks();
  if (reservedAt(s) !== word) {
    if (s.done)
      s.fail(
        open,
        `the construct at {at} is never closed: "${word}" is missing (a syntax error in bash)`,
        'syntax.unterminated',
      );
    s.unexpected();
  }
  s.i += word.length;
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
    const cond = readBody(s, ['then'], open, 'if');
    expectWord(s, 'then', open);
    const body = readBody(s, ['elif', 'else', 'fi'], open, 'then');
    branches.push({ cond, body });
    const next = reservedAt(s);
    s.i += next!.length;
    if (next === 'elif') continue;
    if (next === 'else') {
      otherwise = readBody(s, ['fi'], open, 'else');
      expectWord(s, 'fi', open);
    }
    break;
  }
  return { kind: 'if', branches, otherwise, redirects: [], start: s.pos(open), end: s.pos() };
}

function readFor(s: Scanner, open: number, word: 'for' | 'select'): Compound {
  s.i += word.length;
  s.skipBlanks();
  if (word === 'for' && s.at('((')) return readArithFor(s, open);
  const nameWord = readWord(s);
  const name = nameWord && s.text.slice(nameWord.start.offset, nameWord.end.offset);
  if (!nameWord || !name || !isName(name)) s.unexpected(nameWord?.start.offset ?? s.i);
  let items: Word[] | null = null;
  s.skipNewlines();
  if (reservedAt(s) === 'in') {
    s.i += 2;
    items = [];
    for (;;) {
      s.skipBlanks();
      const item = readWord(s);
      if (!item) break;
      items.push(item);
    }
    if (s.peek() === ';') s.i++;
    else if (s.peek() === '\n') s.newline();
    else if (!s.done) s.unexpected();
  } else if (s.peek() === ';') s.i++;
  s.skipNewlines();
  const body = readLoopBody(s, open);
  const namePos = { start: nameWord.start, end: nameWord.end };
  const kind = word === 'for' ? 'for' : 'select';
  return { kind, name, namePos, items, body, redirects: [], start: s.pos(open), end: s.pos() } as Compound;
}

// do ... done (or, as bash also takes, { ... }).
function readLoopBody(s: Scanner, open: number): Stmt[] {
  const opener = reservedAt(s);
  if (opener === '{') {
    s.i++;
    const body = readBody(s, ['}'], open, '{');
    expectWord(s, '}', open);
    return body;
  }
  expectWord(s, 'do', open);
  const body = readBody(s, ['done'], open, 'do');
  expectWord(s, 'done', open);
  return body;
}

// for (( init; cond; step )) do ... done
function readArithFor(s: Scanner, open: number): Compound {
  const close = findArithEnd(s.text, s.i + 2);
  if (close < 0) s.fail(open, 'the for (( at {at} is never closed', 'syntax.unterminated');
  const inner = s.text.slice(s.i + 2, close);
  const semis: number[] = [];
  let depth = 0;
  for (let k = 0; k < inner.length; k++) {
    if (inner[k] === '(') depth++;
    else if (inner[k] === ')') depth--;
    else if (inner[k] === ';' && depth === 0) semis.push(s.i + 2 + k);
  }
  if (semis.length !== 2)
    s.fail(s.i, 'for (( ... )) needs two ";" between its three expressions at {at} (a syntax error in bash)');
  const bounds = [s.i + 2, semis[0]!, semis[0]! + 1, semis[1]!, semis[1]! + 1, close];
  const parts: (Word | null)[] = [];
  for (let k = 0; k < 6; k += 2) {
    s.i = bounds[k]!;
    const expr = readArithWord(s, bounds[k + 1]!);
    parts.push(s.text.slice(bounds[k]!, bounds[k + 1]!).trim() === '' ? null : expr);
  }
  s.i = close + 2;
  s.skipBlanks();
  if (s.peek() === ';') s.i++;
  s.skipNewlines();
  const body = readLoopBody(s, open);
  const [init = null, cond = null, step = null] = parts;
  return { kind: 'arith-for', init, cond, step, body, redirects: [], start: s.pos(open), end: s.pos() };
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
