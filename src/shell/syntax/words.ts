import type { Word, WordPart } from './nodes.js';
import { isMetaChar, type Scanner } from './scanner.js';
import { markBackquoteLines } from './subst-lines.js';

// How a run of word text is read: where it stops, and which quotes and escapes are active.
export interface PartMode {
  // True at a position (unquoted, outside any nested construct) where the text ends.
  stop(s: Scanner): boolean;
  // Single quotes and $'...' start quoted parts (false inside double quotes, arithmetic, and
  // here-document bodies).
  singleQuotes: boolean;
  // Double quotes start a quoted part (false inside a here-document body).
  doubleQuotes: boolean;
  // <( and >( start a process substitution (in a word, and in an assignment's value, as in bash).
  procSubst?: boolean;
  // Count { and } so that a nested `{...}` does not end a ${...} operand.
  braces: boolean;
}

// A word where a command's word can start: up to the first unquoted metacharacter. Null when the
// cursor is on one (or at the end).
export function readWord(s: Scanner): Word | null {
  const start = s.i;
  if (isWordEnd(s)) return null;
  const parts = readParts(s, WORD_MODE);
  if (s.i === start) return null;
  return { parts, raw: s.text.slice(start, s.i), start: s.pos(start), end: s.pos() };
}

function isWordEnd(s: Scanner): boolean {
  const c = s.peek();
  if (c === '<' || c === '>') {
    // <( and >( start a process substitution, which is a word of its own.
    if (s.peek(1) === '(' && s.inCond === 0) return false;
    return true;
  }
  if (s.inCond > 0 && (c === '(' || c === ')')) return true;
  return isMetaChar(c);
}

const WORD_MODE: PartMode = {
  stop: isWordEnd,
  singleQuotes: true,
  doubleQuotes: true,
  braces: false,
  procSubst: true,
};

// How many characters open a group the word keeps whole (blanks, | and ; in it included): an
// extended pattern, ?( *( +( @( !(, where bash reads them (see Scanner); the ( of `let NAME=(`
// (`word`: the word so far when nothing but literal text came before).
function groupOpening(s: Scanner, word: string | null): number {
  if ((s.extglob || s.extPattern > 0) && '?*+@!'.includes(s.peek()) && s.peek(1) === '(') return 2;
  return s.peek() === '(' && s.letArgs && word !== null && /^[A-Za-z_]\w*\+?=$/.test(word) ? 1 : 0;
}

// Reads parts until mode.stop says the text ends (at an unquoted position).
export function readParts(s: Scanner, mode: PartMode): WordPart[] {
  const parts: WordPart[] = [];
  let litStart = s.i;
  let lit = '';
  let depth = 0;
  // Inside an extended pattern: its open parentheses; every character is the word's up to the last
  // closing one (blanks, | and ; included), quotes and expansions as anywhere in a word.
  let ext = 0;
  const flush = () => {
    if (lit !== '') parts.push({ kind: 'lit', value: lit, start: s.pos(litStart), end: s.pos() });
    lit = '';
  };
  for (;;) {
    if (s.done) {
      if (ext > 0)
        s.fail(s.i, 'an extended pattern is never closed: ")" is missing (a syntax error in bash)');
      break;
    }
    const c = s.peek();
    const opening = mode === WORD_MODE ? groupOpening(s, ext === 0 && parts.length === 0 ? lit : null) : 0;
    if (opening > 0) {
      if (ext === 0 && s.extPattern === 0 && opening === 2) s.extglobRead++;
      ext++;
      if (lit === '') litStart = s.i;
      lit += s.text.slice(s.i, s.i + opening);
      s.i += opening;
      continue;
    }
    if (depth === 0 && ext === 0 && mode.stop(s)) break;
    if (c === '\\') {
      // A line continuation disappears; any other escape stays in the literal for expansion to read.
      if (s.peek(1) === '\n') s.i += 2;
      else {
        if (lit === '') litStart = s.i;
        lit += s.text.slice(s.i, s.i + 2);
        s.i += Math.min(2, s.src.length - s.i);
      }
      continue;
    }
    const quoted = readQuoted(s, mode);
    if (quoted) {
      flush();
      parts.push(quoted);
      litStart = s.i;
      continue;
    }
    if (ext > 0 && c === '(') ext++;
    else if (ext > 0 && c === ')') ext--;
    if (mode.braces) {
      if (c === '{') depth++;
      else if (c === '}' && depth > 0) depth--;
    }
    if (lit === '') litStart = s.i;
    lit += c;
    s.i++;
  }
  flush();
  return parts;
}

// A quoted part or an expansion at the cursor, or null for a plain character.
function readQuoted(s: Scanner, mode: PartMode): WordPart | null {
  const c = s.peek();
  if (c === "'" && mode.singleQuotes) return readSingle(s);
  if (c === '"' && mode.doubleQuotes) return readDouble(s, s.i, false);
  if (c === '$') {
    if (s.peek(1) === "'" && mode.singleQuotes) return readAnsi(s);
    if (s.peek(1) === '"' && mode.doubleQuotes) return readDouble(s, s.i + 1, true);
    return s.grammar.dollar(s, !mode.singleQuotes);
  }
  if (c === '`') return readBackquote(s, !mode.singleQuotes);
  if ((c === '<' || c === '>') && s.peek(1) === '(' && mode.procSubst) return readProcSubst(s);
  return null;
}

function readSingle(s: Scanner): WordPart {
  const open = s.i;
  const close = s.text.indexOf("'", open + 1);
  if (close < 0) {
    s.fail(
      open,
      "the single quote at {at} is never closed; add the closing ' (to pass a quote as text, write \\' or \"'\")",
      'syntax.unterminated',
    );
  }
  s.i = close + 1;
  return { kind: 'sq', value: s.text.slice(open + 1, close), start: s.pos(open), end: s.pos() };
}

function readAnsi(s: Scanner): WordPart {
  const open = s.i;
  let j = open + 2;
  while (j < s.src.length && s.text[j] !== "'") j += s.text[j] === '\\' ? 2 : 1;
  if (j >= s.src.length) s.fail(open, "$' at {at} is never closed", 'syntax.unterminated');
  s.i = j + 1;
  return { kind: 'ansi', raw: s.text.slice(open + 2, j), start: s.pos(open), end: s.pos() };
}

// "..." (from `open`, the quote; $"..." when `locale`): $ expansions, backquotes, and the escapes
// \$ \` \" \\ and \newline are active; everything else is literal.
function readDouble(s: Scanner, quote: number, locale: boolean): WordPart {
  const open = locale ? quote - 1 : quote;
  s.i = quote + 1;
  const parts = readParts(s, DOUBLE_MODE);
  if (s.peek() !== '"') {
    s.fail(
      quote,
      'the double quote at {at} is never closed; add the closing " (to pass a quote as text, write \\" or \'"\')',
      'syntax.unterminated',
    );
  }
  s.i++;
  return { kind: 'dq', parts, locale, start: s.pos(open), end: s.pos() };
}

const DOUBLE_MODE: PartMode = {
  stop: (s) => s.peek() === '"',
  singleQuotes: false,
  doubleQuotes: false,
  braces: false,
};

// `...`: the text up to the closing backquote, with \\ \` \$ (and \" inside double quotes) unescaped,
// parsed as a list of its own.
function readBackquote(s: Scanner, inDouble: boolean): WordPart {
  const open = s.i;
  let j = open + 1;
  let inner = '';
  for (;;) {
    const c = s.text[j];
    if (c === undefined) s.fail(open, 'the backquote at {at} is never closed', 'syntax.unterminated');
    if (c === '`') break;
    if (c === '\\') {
      const next = s.text[j + 1] ?? '';
      if (next === '\\' || next === '`' || next === '$' || (inDouble && next === '"')) {
        inner += next;
        j += 2;
        continue;
      }
    }
    inner += c;
    j++;
  }
  s.i = j + 1;
  const stmts = s.parseInner(inner, open + 1);
  markBackquoteLines(stmts, s.pos(open).line);
  return { kind: 'cmdsubst', stmts, backquote: true, start: s.pos(open), end: s.pos() };
}

function readProcSubst(s: Scanner): WordPart {
  const open = s.i;
  const op = s.peek() as '<' | '>';
  s.i += 2;
  const stmts = s.parseNested(s, ')');
  if (s.peek() !== ')')
    s.fail(open, `the process substitution ${op}( at {at} is never closed`, 'syntax.unterminated');
  s.i++;
  return { kind: 'procsubst', op, stmts, start: s.pos(open), end: s.pos() };
}
