import type { ArrayElem, Assign, Word } from './nodes.js';
import type { Scanner } from './scanner.js';
import { type PartMode, readParts, readWord } from './words.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

// A word written as NAME=value, NAME+=value or NAME[subscript]=value (the name and `=` unquoted), as
// an assignment; null for any other word. The subscript and value are read again from the source.
export function assignOf(s: Scanner, word: Word): Assign | null {
  const from = s.local(word.start);
  const to = s.local(word.end);
  const text = s.text.slice(from, to);
  const name = NAME.exec(text)?.[0];
  if (!name) return null;
  let at = name.length;
  let index: Word | null = null;
  if (text[at] === '[') {
    const close = closeBracket(text, at + 1);
    if (close < 0) return null;
    index = readRegion(s, from + at + 1, from + close, SUBSCRIPT_MODE);
    at = close + 1;
  }
  const append = text[at] === '+';
  if (append) at++;
  if (text[at] !== '=') return null;
  const value = readRegion(s, from + at + 1, to, VALUE_MODE);
  return { name, index, append, value, array: null, start: word.start, end: word.end };
}

// At a command's start, NAME[ ... ]= may hold blanks inside the brackets (bash reads the subscript
// whole there). Returns that word, or null (cursor unmoved) when the text is not such an assignment.
export function readSubscriptAssignWord(s: Scanner): Word | null {
  const rest = s.text.slice(s.i, s.i + 4096);
  const name = NAME.exec(rest)?.[0];
  if (!name || rest[name.length] !== '[') return null;
  const close = closeBracket(rest, name.length + 1);
  if (close < 0 || !/^\+?=/.test(rest.slice(close + 1, close + 3))) return null;
  if (!/[ \t]/.test(rest.slice(name.length, close))) return null;
  return readPast(s, s.i + close + 1);
}

// An element of NAME=( ... ) written [ ... ]=value with blanks in the brackets, read whole as bash
// reads it (`a=([1 + 1]=x)`, `m=([a b]=c)`), or null (cursor unmoved).
function readBlankSubscriptElement(s: Scanner): Word | null {
  const rest = s.text.slice(s.i, s.i + 4096);
  if (rest[0] !== '[') return null;
  const close = closeBracket(rest, 1);
  if (close < 0 || rest[close + 1] !== '=' || !/[ \t]/.test(rest.slice(1, close))) return null;
  return readPast(s, s.i + close + 1);
}

// A word from the cursor that goes on at least up to `past` (blanks before it are its own).
function readPast(s: Scanner, past: number): Word {
  const start = s.i;
  const parts = readParts(s, {
    stop: (sc) => sc.i >= past && /^[ \t\n|&;()<>]?$/.test(sc.peek()),
    singleQuotes: true,
    doubleQuotes: true,
    braces: false,
  });
  return { parts, start: s.pos(start), end: s.pos() };
}

// NAME=( elements ): the cursor is on `(`; reads to the matching `)`.
export function readArrayAssign(s: Scanner, assign: Assign): void {
  const open = s.i;
  s.i++;
  const elems: ArrayElem[] = [];
  for (;;) {
    s.skipNewlines();
    if (s.peek() === ')') break;
    if (s.done) s.fail(open, 'the array ( at {at} is never closed', 'syntax.unterminated');
    const start = s.i;
    const word = readBlankSubscriptElement(s) ?? readWord(s);
    if (!word) s.unexpected();
    elems.push(elementOf(s, word, start));
  }
  s.i++;
  assign.value = null;
  assign.array = elems;
  assign.end = s.pos();
}

function elementOf(s: Scanner, word: Word, start: number): ArrayElem {
  const end = s.local(word.end);
  const text = s.text.slice(start, end);
  if (text.startsWith('[')) {
    const close = closeBracket(text, 1);
    if (close > 0 && text[close + 1] === '=') {
      const index = readRegion(s, start + 1, start + close, SUBSCRIPT_MODE);
      const value = readRegion(s, start + close + 2, end, VALUE_MODE);
      return { index, value, start: word.start, end: word.end };
    }
  }
  return { index: null, value: word, start: word.start, end: word.end };
}

const SUBSCRIPT_MODE: PartMode = { stop: () => false, singleQuotes: true, doubleQuotes: true, braces: false };
const VALUE_MODE: PartMode = {
  stop: () => false,
  singleQuotes: true,
  doubleQuotes: true,
  braces: false,
  procSubst: true,
};

// Reads the parts of the text between two offsets of the source again.
function readRegion(s: Scanner, from: number, to: number, mode: PartMode): Word {
  const saved = s.i;
  // Here-documents started in the region are read (again) with it; the list's own wait for later.
  // One whose body is after the region (`x=$(cat <<EOF)`, its body on the next lines) waits with
  // them, in place of the one the first reading of the word left waiting.
  const pending = s.pending;
  s.pending = [];
  s.i = from;
  const parts = readParts(s, { ...mode, stop: (sc) => sc.i >= to });
  s.i = saved;
  const again = s.pending;
  s.pending =
    again.length <= pending.length ? [...pending.slice(0, pending.length - again.length), ...again] : pending;
  return { parts, start: s.pos(from), end: s.pos(to) };
}

// The index of the ] that closes a subscript whose text starts at `from`, skipping quotes.
function closeBracket(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === "'") {
      const close = text.indexOf(c, i + 1);
      if (close < 0) return -1;
      i = close;
    } else if (c === '"') {
      // (A backslash in double quotes escapes the next character: "c\"d".)
      i = closingQuote(text, i + 1);
      if (i < 0) return -1;
    } else if (c === '[') depth++;
    else if (c === ']') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

// The index of the " that closes a double-quoted string whose text starts at `from`, or -1.
function closingQuote(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}
