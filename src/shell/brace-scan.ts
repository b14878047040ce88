import type { Word } from '../model/shell-syntax.js';

// Whether bash may brace-expand a word. bash expands `{...}` only when an unquoted `{` (not the one
// of `${`) is followed by a `,` or `..` and then by its `}`; a word in which no `{` is followed by a
// separator and then a `}` has nothing to expand, however its braces nest. Reading the text once, left
// to right, costs O(n); bash's own brace expansion rescans from every `{` (a 24 KB `{a{a...}}}` took it
// 2.1 s, 48 KB 8.9 s), so a word that cannot expand is better not given to it.
//
// This over-approximates, never under: every `{`, `,`, `..` and `}` of the text counts, quoted or
// not, so any word bash would expand is reported (and one with a quoted separator may be reported too).
export function mayBraceExpand(word: Word): boolean {
  if (!word.parts.some((part) => part.kind === 'pattern' && part.text === '{')) return false;
  return braceOrderIn(word.raw);
}

// True when the text has a `{`, then a `,` or `..`, then a `}`, in that order.
export function braceOrderIn(text: string): boolean {
  let stage = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (stage === 0 && c === '{') stage = 1;
    else if (stage === 1 && (c === ',' || (c === '.' && text[i + 1] === '.'))) stage = 2;
    else if (stage === 2 && c === '}') return true;
  }
  return false;
}
