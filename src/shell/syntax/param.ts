import { readArithWord } from './arith-text.js';
import type { ParamExp, ParamOp, Pos, Word } from './nodes.js';
import { closingBrace, matchingBracket } from './param-scan.js';
import type { Scanner } from './scanner.js';
import { readParts } from './words.js';

const SPECIAL = '@*#?-$!0';
const WORD_OPS: ParamOp[] = [':-', ':=', ':?', ':+', '-', '=', '?', '+'];
const PATTERN_OPS: ParamOp[] = ['##', '#', '%%', '%', '^^', '^', ',,', ',', '~~', '~'];

// ${...} at the cursor, read the way bash matches it at parse time; what is not a valid expansion is
// kept as `bad` and refused when expanded ("bad substitution"), as bash does.
export function readBraced(s: Scanner, quoted = false): ParamExp {
  const open = s.i;
  s.i += 2;
  const exp = blank(s, open);
  readHead(s, exp);
  // No parameter (${:-a}, ${=x}), ${!!} and ${!$}: bash's "bad substitution".
  if (exp.name === '' || (exp.indirect && (exp.name === '!' || exp.name === '$')))
    return badUpToBrace(s, exp, open);
  if (s.peek() === '[' && exp.name !== '' && !/^[0-9]+$|^[@*#?$!-]$/.test(exp.name)) {
    const index = readIndex(s, open);
    // A subscript not closed before the expansion's } (${x[}) is a bad substitution too.
    // So is an empty one (${a[]}).
    if (index === null || index.parts.length === 0) return badUpToBrace(s, exp, open);
    exp.index = index;
  }
  // A length takes no operator (${#a[@]:1}).
  if (exp.length && s.peek() !== '}') return badUpToBrace(s, exp, open);
  if (exp.indirect && exp.index && isAll(exp.index) && s.peek() === '}') {
    exp.keys = true;
    exp.indirect = false;
  }
  if (s.peek() !== '}') readOperator(s, exp, quoted);
  if (s.peek() !== '}' || exp.bad !== null) return badUpToBrace(s, exp, open);
  s.i++;
  exp.end = s.pos();
  return exp;
}

// bash matches the braces and complains when the expansion is reached: the whole ${...} is kept.
function badUpToBrace(s: Scanner, exp: ParamExp, open: number): ParamExp {
  const close = closingBrace(s.text, s.i);
  if (close < 0) s.fail(open, `the parameter expansion \${ at {at} is never closed`, 'syntax.unterminated');
  exp.bad = s.text.slice(open, close + 1);
  s.i = close + 1;
  exp.end = s.pos();
  return exp;
}

function blank(s: Scanner, open: number): ParamExp {
  return paramNode(s.pos(open), s.pos(open), { short: false, name: '' });
}

// A parameter expansion with no operator: ${...} to be filled in, or $name (short).
export function paramNode(start: Pos, end: Pos, { short, name }: { short: boolean; name: string }): ParamExp {
  return {
    kind: 'param',
    short,
    name,
    index: null,
    length: false,
    indirect: false,
    prefixList: null,
    keys: false,
    op: null,
    slice: null,
    replace: null,
    transform: null,
    bad: null,
    start,
    end,
  };
}

// The name, with a leading # (length) or ! (indirection, a prefix list, an array's keys).
function readHead(s: Scanner, exp: ParamExp): void {
  const c = s.peek();
  if (c === '#' && s.peek(1) !== '}' && startsName(s, 1) && endsAfterName(s, 1)) {
    exp.length = true;
    s.i++;
  } else if (c === '!' && s.peek(1) !== '}' && startsName(s, 1)) {
    exp.indirect = true;
    s.i++;
  }
  exp.name = readName(s);
  if (
    exp.indirect &&
    (s.peek() === '*' || s.peek() === '@') &&
    s.peek(1) === '}' &&
    /^[A-Za-z_]/.test(exp.name)
  ) {
    exp.prefixList = s.peek() as '*' | '@';
    exp.indirect = false;
    s.i++;
  }
}

function startsName(s: Scanner, ahead: number): boolean {
  const c = s.peek(ahead);
  return /[A-Za-z_0-9]/.test(c) || (c !== '' && SPECIAL.includes(c));
}

// ${#x} and ${#x[...]} are lengths; ${#:-w} or ${#-} are operators on $#.
function endsAfterName(s: Scanner, ahead: number): boolean {
  const rest = s.text.slice(s.i + ahead, s.i + ahead + 260);
  const name = /^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!0-])/.exec(rest)?.[0] ?? '';
  const after = rest[name.length];
  return name !== '' && (after === '}' || after === '[');
}

function readName(s: Scanner): string {
  const rest = s.text.slice(s.i, s.i + 260);
  const name =
    /^([A-Za-z_][A-Za-z0-9_]*|[0-9]+)/.exec(rest)?.[0] ??
    (rest[0] && SPECIAL.includes(rest[0]) ? rest[0] : '');
  s.i += name.length;
  return name;
}

// [subscript]: as a word (quotes removed when expanded); @ and * are words too.
function readIndex(s: Scanner, braceOpen: number): Word | null {
  const open = s.i;
  const close = matchingBracket(s.text, open + 1);
  const brace = closingBrace(s.text, braceOpen + 2);
  if (close < 0 && brace < 0) s.fail(open, 'the subscript [ at {at} is never closed', 'syntax.unterminated');
  // (A } in quotes or a substitution inside the subscript is left to the subscript.)
  const plain = brace >= 0 && !/["'`$\\]/.test(s.text.slice(open, brace));
  if (close < 0 || (plain && brace < close)) return null;
  s.i = open + 1;
  const start = s.i;
  const parts = readParts(s, {
    stop: (sc) => sc.i >= close,
    singleQuotes: true,
    doubleQuotes: true,
    braces: false,
  });
  const word = { parts, start: s.pos(start), end: s.pos() };
  s.i = close + 1;
  return word;
}

function isAll(index: Word): boolean {
  const only = index.parts.length === 1 ? index.parts[0]! : null;
  return only?.kind === 'lit' && (only.value === '@' || only.value === '*');
}

function readOperator(s: Scanner, exp: ParamExp, quoted: boolean): void {
  if (s.peek() === ':' && !'-=?+'.includes(s.peek(1) || 'x')) {
    s.i++;
    const offset = readArithUntil(s, ':}');
    let length: Word | null = null;
    if (s.peek() === ':') {
      s.i++;
      length = readArithUntil(s, '}');
    }
    exp.slice = { offset, length };
    // ${x:} (an empty offset): bash's "bad substitution".
    if (offset.parts.length === 0 && length === null) exp.bad = '';
    return;
  }
  if (s.peek() === '/') {
    s.i++;
    const all = s.peek() === '/';
    const anchor = s.peek() === '#' || s.peek() === '%' ? (s.peek() as '#' | '%') : null;
    if (all || anchor) s.i++;
    const pattern = readOperand(s, true, quoted, true);
    let replacement: Word | null = null;
    if (s.peek() === '/') {
      s.i++;
      replacement = readOperand(s, true, quoted, false);
    }
    exp.replace = { all, anchor, pattern, with: replacement };
    return;
  }
  if (s.peek() === '@') {
    // ${x@Q}; an unknown transformation (${x@Z}, ${x@}) is bad only when x is set (param-expand.ts).
    const close = closingBrace(s.text, s.i + 1);
    if (close < 0) return;
    exp.transform = s.text.slice(s.i + 1, close);
    if (!/^[aAKkEPQULu]$/.test(exp.transform)) exp.bad = '';
    s.i = close;
    return;
  }
  const word = WORD_OPS.find((op) => s.at(op));
  const pattern = PATTERN_OPS.find((op) => s.at(op));
  const op = word ?? pattern;
  if (!op) return;
  s.i += op.length;
  exp.op = { kind: 'word', op, word: readOperand(s, pattern !== undefined, quoted, false) };
}

// The word of an operator, up to the } that closes the expansion (or a / for a replacement's
// pattern). Inside double quotes, single quotes are text for - = ? + and quotes for the patterns
// and for a replacement (as `$'...'` is: "${x/b/'B'}" is aBc, as in bash since 4.3).
function readOperand(s: Scanner, quotes: boolean, quoted: boolean, slash: boolean): Word {
  const start = s.i;
  const parts = readParts(s, {
    stop: (sc) => sc.peek() === '}' || (slash && sc.peek() === '/'),
    singleQuotes: !quoted || quotes,
    doubleQuotes: true,
    braces: false,
  });
  return { parts, start: s.pos(start), end: s.pos() };
}

// Arithmetic text of a slice, up to one of `stops` outside any brackets.
function readArithUntil(s: Scanner, stops: string): Word {
  let end = s.i;
  let depth = 0;
  // Up to the } that closes the expansion; a bracket not closed before it (${x:(}) leaves the
  // expression at the first stop (bash's syntax error when evaluated).
  const close = closingBrace(s.text, s.i);
  const limit = close < 0 ? s.src.length : close;
  let first = -1;
  // A `?` waits for its `:` (${x:1?2:0:1} has offset 1?2:0), as bash skips it.
  let asked = 0;
  while (end < limit) {
    const c = s.text[end]!;
    if (depth === 0 && c === '?') asked++;
    const answer = depth === 0 && c === ':' && asked > 0;
    if (answer) asked--;
    else if (stops.includes(c) && first < 0) first = end;
    if (depth === 0 && stops.includes(c) && !answer) break;
    if (c === '(' || c === '{' || c === '[') depth++;
    else if ((c === ')' || c === '}' || c === ']') && depth > 0) depth--;
    end++;
  }
  return readArithWord(s, end === limit && depth > 0 && first >= 0 ? first : end);
}
