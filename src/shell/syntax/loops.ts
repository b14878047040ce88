import { findArithEnd, readArithWord } from './arith-text.js';
import { expectWord, readBody } from './bodies.js';
import type { Compound, Stmt, Word } from './nodes.js';
import { isName, reservedAt, type Scanner } from './scanner.js';
import { readWord } from './words.js';

// for NAME [in WORDS]; select NAME [in WORDS]; for (( init; cond; step )): each with its loop body.
export function readFor(s: Scanner, open: number, word: 'for' | 'select'): Compound {
  s.i += word.length;
  s.skipBlanks();
  if (word === 'for' && s.at('((')) return readArithFor(s, open);
  const nameWord = readWord(s);
  const name = nameWord && s.text.slice(s.local(nameWord.start), s.local(nameWord.end));
  if (!nameWord || !name || !isName(name)) s.unexpected(nameWord ? s.local(nameWord.start) : s.i);
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
    const body = readBody(s, ['}'], open);
    expectWord(s, '}', open);
    return body;
  }
  expectWord(s, 'do', open);
  const body = readBody(s, ['done'], open);
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
