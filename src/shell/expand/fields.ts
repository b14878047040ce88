import type { Bytes } from '../syntax/source.js';
import { charsOf } from './param-text.js';

// A piece of an expanded word: its text, whether it was quoted (neither split nor globbed), and
// whether it came from an unquoted expansion (then IFS splits it). Unquoted text written in the word
// itself is neither quoted nor split: it is globbed, not split.
export interface Chunk {
  text: Bytes;
  quoted: boolean;
  split: boolean;
}

// One word being built. `kept`: it had a quoted part, so it stays even when empty ("" is a word).
export interface Field {
  chunks: Chunk[];
  kept: boolean;
}

export function newField(): Field {
  return { chunks: [], kept: false };
}

export function fieldText(field: Field): Bytes {
  return field.chunks.map((chunk) => chunk.text).join('');
}

const IFS_WHITE = ' \t\n';

// Word splitting (bash's rules): the characters of IFS in text that came from unquoted expansions end
// fields; runs of IFS white space count once and are dropped at the edges; each other IFS character
// ends a field, so two in a row make an empty field between them. `ifs` null: IFS unset (space, tab,
// newline).
// `utf8`: the locale's characters are UTF-8, so a character of IFS may be several bytes (IFS=é).
export function splitFields(fields: readonly Field[], ifs: Bytes | null, utf8 = false): Field[] {
  const wide = utf8 && /[\x80-\xff]/.test(ifs ?? '');
  const separators = wide ? charsOf(ifs!, true) : (ifs ?? IFS_WHITE);
  const out: Field[] = [];
  for (const field of fields) {
    if (separators.length === 0 || !field.chunks.some((chunk) => chunk.split && chunk.text !== '')) {
      if (field.kept || field.chunks.some((chunk) => chunk.text !== '')) out.push(field);
      continue;
    }
    // (a lone byte that is not a whole character separates when it is one of IFS's bytes, as in bash)
    const isSeparator = wide
      ? (c: Bytes) => (c.length > 1 ? separators.includes(c) : ifs!.includes(c))
      : (c: Bytes) => separators.includes(c);
    splitOne(field, isSeparator, out, wide);
  }
  return out;
}

function splitOne(field: Field, isSeparator: (c: Bytes) => boolean, out: Field[], wide: boolean): void {
  let current: Field | null = field.kept ? newField() : null;
  if (current) current.kept = true;
  // 'start': nothing yet; 'white': after IFS white space; 'delim': after another IFS character.
  let state: 'start' | 'text' | 'white' | 'delim' = 'start';
  const end = () => {
    if (current) out.push(current);
    current = null;
  };
  for (const chunk of field.chunks) {
    if (!chunk.split) {
      current ??= newField();
      current.chunks.push(chunk);
      if (chunk.quoted) current.kept = true;
      if (chunk.text !== '' || chunk.quoted) state = 'text';
      continue;
    }
    let run = '';
    const flush = () => {
      if (run === '') return;
      current ??= newField();
      current.chunks.push({ text: run, quoted: false, split: true });
      run = '';
    };
    for (const c of wide ? charsOf(chunk.text, true) : chunk.text) {
      if (!isSeparator(c)) {
        run += c;
        state = 'text';
        continue;
      }
      flush();
      if (IFS_WHITE.includes(c)) {
        if (state === 'text') end();
        if (state !== 'delim') state = state === 'start' ? 'start' : 'white';
      } else {
        if (state === 'text') end();
        else if (state === 'start' || state === 'delim') out.push(newEmpty());
        // (bash joins white space to the first byte of a character of IFS after it: each of the
        // character's other bytes is then a lone byte of IFS, with an empty field before it.)
        else for (let k = 1; k < c.length; k++) out.push(newEmpty());
        state = 'delim';
      }
    }
    flush();
  }
  end();
}

function newEmpty(): Field {
  return { chunks: [], kept: true };
}

// Whether pathname expansion applies: an unquoted * or ?, or an unquoted [ with an unquoted ] after
// it (in written text or an unquoted expansion), or, with extglob, an extended pattern (`@(a|b)`).
export function hasGlob(field: Field, extglob = false): boolean {
  const maybe = extglob ? /[*?[(]/ : /[*?[]/;
  if (!field.chunks.some((chunk) => !chunk.quoted && maybe.test(chunk.text))) return false;
  const chars = patternChars(field.chunks, extglob);
  let bracket = false;
  for (const char of chars) {
    if (char.quoted) continue;
    if (char.c === '*' || char.c === '?' || (char.raw && char.c === '(') || (bracket && char.c === ']'))
      return true;
    if (char.c === '[') bracket = true;
  }
  return false;
}

const SAFE = /[A-Za-z0-9*?[\]!^:=.-]/;

interface PatternChar {
  c: string;
  quoted: boolean;
  // Part of an extended pattern's syntax: its operator, parentheses and bars.
  raw: boolean;
}

// The characters of a pattern, each quoted or not (a backslash from an unquoted expansion quotes the
// character after it, as in bash's pattern matching); with extglob, the operators, parentheses and
// bars of every extended pattern that closes are marked as its syntax.
function patternChars(chunks: readonly Chunk[], extglob: boolean): PatternChar[] {
  const chars: PatternChar[] = [];
  for (const chunk of chunks) {
    const t = chunk.text;
    for (let i = 0; i < t.length; i++) {
      if (chunk.quoted) chars.push({ c: t[i]!, quoted: true, raw: false });
      else if (t[i] === '\\' && i + 1 < t.length) chars.push({ c: t[++i]!, quoted: true, raw: false });
      else chars.push({ c: t[i]!, quoted: false, raw: false });
    }
  }
  if (extglob) markExtglob(chars);
  return chars;
}

function markExtglob(chars: PatternChar[]): void {
  const open: { at: number; bars: number[] }[] = [];
  chars.forEach((char, j) => {
    if (char.quoted) return;
    const next = chars[j + 1];
    if ('?*+@!'.includes(char.c) && next?.c === '(' && !next.quoted) open.push({ at: j, bars: [] });
    else if (char.c === '|' && open.length > 0) open.at(-1)!.bars.push(j);
    else if (char.c === ')' && open.length > 0) {
      const group = open.pop()!;
      for (const k of [group.at, group.at + 1, ...group.bars, j]) chars[k]!.raw = true;
    }
  });
}

// The field as a pattern for the oracle's eval: quoted text in single quotes, unquoted glob syntax as
// it is (with extglob, the syntax of extended patterns too), every other unquoted character quoted.
// Only quoted text, SAFE characters and balanced extended patterns result (inertPattern checks).
export function patternOf(chunks: readonly Chunk[], alsoRaw = '', extglob = false): string {
  let out = '';
  let quoted = '';
  for (const char of patternChars(chunks, extglob)) {
    const plain = !char.quoted && (char.raw || SAFE.test(char.c) || alsoRaw.includes(char.c));
    if (!plain) {
      quoted += char.c;
      continue;
    }
    out += quoteAll(quoted) + char.c;
    quoted = '';
  }
  return out + quoteAll(quoted);
}

function quoteAll(text: Bytes): string {
  if (text === '') return '';
  return `'${text.replaceAll("'", "'\\''")}'`;
}

// Whether the pattern has nothing that matches more than itself (then a plain comparison will do).
// (Any unquoted [ counts here: whether bash's matcher takes it as text is the matcher's business.)
export function isLiteralPattern(chunks: readonly Chunk[], extglob = false): boolean {
  if (chunks.some((c) => !c.quoted && /[*?[\\]/.test(c.text))) return false;
  return !extglob || !patternChars(chunks, true).some((char) => char.raw);
}

// The text a literal pattern matches.
export function literalOf(chunks: readonly Chunk[]): Bytes {
  return chunks.map((chunk) => chunk.text).join('');
}
