import type { Word } from './nodes.js';
import type { Scanner } from './scanner.js';
import { readParts } from './words.js';

// Arithmetic text up to `to`: expansions, backquotes and double quotes are read; everything else
// (operators, names, blanks, single quotes) is literal, for the evaluator.
export function readArithWord(s: Scanner, to: number): Word {
  const start = s.i;
  const parts = readParts(s, {
    stop: (scanner) => scanner.i >= to,
    singleQuotes: false,
    doubleQuotes: true,
    braces: false,
  });
  return { parts, start: s.pos(start), end: s.pos() };
}

// Where the `))` closing an arithmetic expansion opened just before `from` is: the index of its first
// `)`, or -1 when a `)` at depth 0 is not followed by another (then `$((` was `$( (`, a command
// substitution starting with a subshell, as bash decides).
export function findArithEnd(text: string, from: number): number {
  const close = findClosing(text, from, '(', ')');
  return close >= 0 && text[close + 1] === ')' ? close : -1;
}

// The index of the bracket that closes the one opened just before `from`, counting nested pairs.
export function findClosing(text: string, from: number, open: string, close: string): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === "'" || c === '"' || c === '`') {
      const skipped = skipQuoted(text, i);
      if (skipped < 0) return -1;
      i = skipped;
    } else if (c === open) depth++;
    else if (c === close) {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

// The index of the quote closing the one at `at`, or -1.
function skipQuoted(text: string, at: number): number {
  const q = text[at];
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === '\\' && q !== "'") i++;
    else if (text[i] === q) return i;
  }
  return -1;
}
