import { findArithEnd, findClosing, readArithWord } from './arith-text.js';
import type { WordPart } from './nodes.js';
import { paramNode, readBraced } from './param.js';
import type { Scanner } from './scanner.js';
import { markSubstLines } from './subst-lines.js';

const SPECIAL = '@*#?-$!0123456789';

// An expansion starting with `$` at the cursor; a lone `$` is a literal (null: the caller takes it).
// `quoted`: inside double quotes (or a here-document body, or arithmetic).
export function readDollar(s: Scanner, quoted: boolean): WordPart | null {
  const open = s.i;
  const next = s.peek(1);
  if (next === '(') {
    if (s.peek(2) === '(') {
      const end = findArithEnd(s.text, open + 3);
      if (end >= 0) return readArithExp(s, open, open + 3, end, false);
    }
    s.i += 2;
    s.inSubst++;
    const waiting = new Set(s.pending);
    const stmts = s.parseNested(s, ')');
    s.inSubst--;
    // Here-documents whose bodies come after it: bash says so, then reads them after the line.
    const left = s.pending.filter((doc) => !waiting.has(doc)).length;
    if (left > 0)
      s.warn(
        `command substitution: ${left} unterminated here-document${left === 1 ? '' : 's'}`,
        s.pos().line,
      );
    markSubstLines(s, stmts);
    if (s.peek() !== ')')
      s.fail(open, 'the command substitution $( at {at} is never closed', 'syntax.unterminated');
    s.i++;
    return { kind: 'cmdsubst', stmts, backquote: false, start: s.pos(open), end: s.pos() };
  }
  if (next === '[') {
    const end = findClosing(s.text, open + 2, '[', ']');
    if (end < 0) s.fail(open, 'the arithmetic $[ at {at} is never closed', 'syntax.unterminated');
    return readArithExp(s, open, open + 2, end, true);
  }
  if (next === '{') return readBraced(s, quoted);
  const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.text.slice(open + 1, open + 257))?.[0];
  const single = name ?? (next !== '' && SPECIAL.includes(next) ? next : null);
  if (single === null) return null;
  s.i = open + 1 + single.length;
  return shortParam(s, single, open);
}

function shortParam(s: Scanner, name: string, open: number): WordPart {
  return paramNode(s.pos(open), s.pos(), { short: true, name });
}

// $(( expr )) or $[ expr ]: the expression text from `from` to `to` (exclusive) read as a word of
// arithmetic mode; the cursor ends after the closing `))` or `]`.
function readArithExp(s: Scanner, open: number, from: number, to: number, bracket: boolean): WordPart {
  s.i = from;
  const expr = readArithWord(s, to);
  s.i = to + (bracket ? 1 : 2);
  return { kind: 'arith-exp', expr, bracket, start: s.pos(open), end: s.pos() };
}
