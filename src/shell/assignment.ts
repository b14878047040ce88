import type { Assignment, Word } from '../model/shell-syntax.js';

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=/;

// NAME=value written as one word: the name, and the value as a word of its own (its script and
// literal are the word's minus the leading NAME=, plain characters the same in both). Null when the
// word does not start with an unquoted NAME=.
export function assignmentOf(word: Word): Assignment | null {
  const match = ASSIGNMENT.exec(word.raw);
  const first = word.parts[0];
  if (!match || first?.kind !== 'literal' || !first.text.startsWith(match[0])) return null;
  const prefix = match[0].length;
  const rest = first.text.slice(prefix);
  const parts = [
    ...(rest === '' ? [] : [{ ...first, text: rest, col: first.col + prefix }]),
    ...word.parts.slice(1),
  ];
  const value: Word = {
    raw: word.raw.slice(prefix),
    col: word.col + prefix,
    line: word.line,
    parts,
    literal: word.literal === null ? null : word.literal.slice(prefix),
    script: word.script.slice(prefix),
    substitutions: word.substitutions,
  };
  return { name: match[1]!, value, raw: word.raw, col: word.col, line: word.line };
}
