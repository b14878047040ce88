import { readList } from './lists.js';
import type { Stmt } from './nodes.js';
import { reservedAt, type Scanner } from './scanner.js';

// A list that must not be empty, up to one of `ends`.
export function readBody(s: Scanner, ends: string[], open: number, opener: string): Stmt[] {
  const stmts = readList(s, { words: ends });
  if (s.done)
    s.fail(open, `"${opener}" at {at} is never closed (a syntax error in bash)`, 'syntax.unterminated');
  if (stmts.length === 0) s.unexpected();
  return stmts;
}

export function expectWord(s: Scanner, word: string, open: number): void {
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
