import { readList } from './lists.js';
import type { Stmt } from './nodes.js';
import { reservedAt, type Scanner } from './scanner.js';

// A list that must not be empty, up to one of `ends` (the last is the word that closes the construct
// begun at `open`, or the next part of it).
export function readBody(s: Scanner, ends: string[], open: number): Stmt[] {
  const stmts = readList(s, { words: ends });
  if (s.done) neverClosed(s, open, ends.at(-1)!);
  if (stmts.length === 0) s.unexpected();
  return stmts;
}

export function expectWord(s: Scanner, word: string, open: number): void {
  s.skipBlanks();
  if (reservedAt(s) !== word) {
    if (s.done) neverClosed(s, open, word);
    s.unexpected();
  }
  s.i += word.length;
}

// `-c: "if" at column 1 is never closed: "fi" expected (a syntax error in bash)`.
function neverClosed(s: Scanner, open: number, expected: string): never {
  const opener = /^(?:\{|[a-z]+)/.exec(s.text.slice(open, open + 8))?.[0] ?? s.text[open];
  return s.fail(
    open,
    `"${opener}" at {at} is never closed: "${expected}" expected (a syntax error in bash)`,
    'syntax.unterminated',
  );
}
