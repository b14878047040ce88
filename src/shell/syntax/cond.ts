import type { Compound, CondExpr, Word } from './nodes.js';
import type { Scanner } from './scanner.js';
import { readParts, readWord } from './words.js';

const UNARY = new Set('abcdefghknoprstuvwxzGLNORS'.split('').map((c) => `-${c}`));
// The binary operators of [[ ]] (test and [ take the same but =~).
export const COND_BINARY = new Set([
  '==',
  '=',
  '!=',
  '=~',
  '<',
  '>',
  '-eq',
  '-ne',
  '-lt',
  '-le',
  '-gt',
  '-ge',
  '-nt',
  '-ot',
  '-ef',
]);

// [[ expression ]]: parsed as bash does at parse time, with ! && || and ( ) for structure, unary and
// binary operators, and words that are neither split nor globbed.
export function readCond(s: Scanner, open: number): Compound {
  s.i += 2;
  s.inCond++;
  try {
    const expr = readOr(s, open);
    s.skipNewlines();
    if (!s.at(']]')) s.unexpected();
    s.i += 2;
    return { kind: 'cond', expr, redirects: [], start: s.pos(open), end: s.pos() };
  } finally {
    s.inCond--;
  }
}

function readOr(s: Scanner, open: number): CondExpr {
  let left = readAnd(s, open);
  for (;;) {
    s.skipNewlines();
    if (!s.at('||')) return left;
    s.i += 2;
    const right = readAnd(s, open);
    left = { kind: 'cond-or', left, right, start: left.start, end: right.end };
  }
}

function readAnd(s: Scanner, open: number): CondExpr {
  let left = readNot(s, open);
  for (;;) {
    s.skipNewlines();
    if (!s.at('&&')) return left;
    s.i += 2;
    const right = readNot(s, open);
    left = { kind: 'cond-and', left, right, start: left.start, end: right.end };
  }
}

function readNot(s: Scanner, open: number): CondExpr {
  s.skipNewlines();
  const start = s.pos();
  if (s.peek() === '!' && /[ \t\n]/.test(s.peek(1))) {
    s.i++;
    const expr = readNot(s, open);
    return { kind: 'cond-not', expr, start, end: expr.end };
  }
  if (s.peek() === '(') {
    s.i++;
    const expr = readOr(s, open);
    s.skipNewlines();
    if (s.peek() !== ')') s.unexpected();
    s.i++;
    return { kind: 'cond-group', expr, start, end: s.pos() };
  }
  return readPrimary(s, open);
}

function readPrimary(s: Scanner, open: number): CondExpr {
  const start = s.pos();
  const first = operand(s, open);
  const text = plain(s, first);
  s.skipBlanks();
  if (text !== null && UNARY.has(text) && !atCondEnd(s)) {
    const arg = operand(s, open);
    return { kind: 'cond-unary', op: text, operand: arg, start, end: arg.end };
  }
  const op = readBinaryOp(s);
  if (op === null) return { kind: 'cond-word', word: first, start, end: first.end };
  s.skipBlanks();
  const right = op === '=~' ? readRegex(s) : patternOperand(s, open, op);
  return { kind: 'cond-binary', op, left: first, right, start, end: right.end };
}

// The right of == != = is a pattern, read with extended patterns whether extglob is on or not (bash
// reads them there always).
function patternOperand(s: Scanner, open: number, op: string): Word {
  if (op !== '==' && op !== '!=' && op !== '=') return operand(s, open);
  s.extPattern++;
  try {
    return operand(s, open);
  } finally {
    s.extPattern--;
  }
}

function atCondEnd(s: Scanner): boolean {
  return s.done || s.at(']]') || s.at('&&') || s.at('||') || s.peek() === ')' || s.peek() === '\n';
}

function readBinaryOp(s: Scanner): string | null {
  if (s.peek() === '<' || s.peek() === '>') {
    const op = s.peek();
    s.i++;
    return op;
  }
  if (atCondEnd(s)) return null;
  const save = s.i;
  const word = readWord(s);
  const text = word && plain(s, word);
  if (text !== null && text !== undefined && COND_BINARY.has(text)) return text;
  s.i = save;
  s.unexpected();
}

function operand(s: Scanner, open: number): Word {
  s.skipNewlines();
  if (s.at(']]') && !/[^ \t\n;&|()<>]/.test(s.peek(2) || ' ')) s.unexpected();
  const word = readWord(s);
  if (!word) {
    if (s.done)
      s.fail(
        open,
        'the [[ at {at} is never closed: "]]" is missing (a syntax error in bash)',
        'syntax.unterminated',
      );
    s.unexpected();
  }
  return word;
}

// The word as written when it is plain unquoted text (an operator is recognised only so).
function plain(s: Scanner, word: Word): string | null {
  const only = word.parts.length === 1 ? word.parts[0]! : null;
  return only?.kind === 'lit' ? s.text.slice(s.local(word.start), s.local(word.end)) : null;
}

// The right side of =~: up to a blank outside parentheses (bash reads ( ) and | as part of it).
function readRegex(s: Scanner): Word {
  const start = s.i;
  let depth = 0;
  const parts = readParts(s, {
    stop: (sc) => {
      const c = sc.peek();
      if (c === '(') depth++;
      else if (c === ')') {
        if (depth === 0) return true;
        depth--;
      }
      return depth === 0 && (c === ' ' || c === '\t' || c === '\n' || sc.at('&&') || sc.at('||'));
    },
    singleQuotes: true,
    doubleQuotes: true,
    braces: false,
  });
  if (s.i === start) s.unexpected();
  return { parts, start: s.pos(start), end: s.pos() };
}
