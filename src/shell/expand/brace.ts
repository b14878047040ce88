import { pushAll } from '../../arrays.js';
import { closingOf } from '../syntax/param-scan.js';
import type { Bytes } from '../syntax/source.js';
import { ExpansionError } from './env.js';

// Brace expansion, bash's first expansion, done on a word's text as bash does it (before the text's
// own expansions are even found, so `{a,b}$x{c,d}` gives `a$xc` ...): `a{b,c}d` is two words, `{1..3}`
// three. Quoted text, ${...} and $( ) are passed over; what is not a valid brace expression stays as
// written, and the search goes on after it.
export function braceExpand(text: Bytes): Bytes[] {
  // Only a `{`, then a `,` or `..`, then a `}` can expand: a text without them in that order is taken
  // as written in one pass (bash's search from every `{` is quadratic: 24 KB of `{a{a...}}` took 4 s).
  if (!braceOrderIn(text)) return [text];
  let i = 0;
  let close = -1;
  let kind: 'comma' | 'seq' | null = null;
  for (;;) {
    i = gobble(text, i, '{').at;
    if (i >= text.length) return [text];
    const found = gobble(text, i + 1, '}');
    if (found.at < text.length && !(found.kind === 'seq' && !validSeq(text.slice(i + 1, found.at)))) {
      close = found.at;
      kind = found.kind;
      break;
    }
    i++;
  }
  const preamble = text.slice(0, i);
  const amble = text.slice(i + 1, close);
  let middle: Bytes[] | null;
  if (kind === 'seq' && !hasComma(amble)) {
    middle = sequence(amble);
    if (!middle) middle = [text.slice(i, close + 1)];
  } else middle = expandAmble(amble);
  const tails = close + 1 < text.length ? braceExpand(text.slice(close + 1)) : [''];
  const out: Bytes[] = [];
  for (const m of middle) for (const tail of tails) out.push(preamble + m + tail);
  return out;
}

function hasComma(amble: Bytes): boolean {
  for (let j = 0; j < amble.length; j++) {
    if (amble[j] === '\\') j++;
    else if (amble[j] === ',') return true;
  }
  return false;
}

// The alternatives between the amble's top-level commas, each brace-expanded.
function expandAmble(amble: Bytes): Bytes[] {
  const out: Bytes[] = [];
  let start = 0;
  for (;;) {
    const { at } = gobble(amble, start, ',');
    pushAll(out, braceExpand(amble.slice(start, at)));
    if (at >= amble.length) return out;
    start = at + 1;
  }
}

// From `from`, the index of the first `satisfy` outside quotes, ${...}, $( ) and nested braces (the
// end of the text when there is none). For `}`, a comma or `..` at the top level must come first;
// `kind` says which did.
function gobble(text: Bytes, from: number, satisfy: string): { at: number; kind: 'comma' | 'seq' | null } {
  let level = 0;
  let quoted: string | null = null;
  let commas = satisfy === '}' ? 0 : 1;
  let kind: 'comma' | 'seq' | null = null;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && (quoted === null || quoted === '"' || quoted === '`')) {
      i++;
      continue;
    }
    if (c === '$' && text[i + 1] === '{' && quoted !== "'") {
      i++;
      if (quoted === null) level++;
      continue;
    }
    if (quoted !== null) {
      if (c === quoted) quoted = null;
      else if (quoted === '"' && c === '$' && text[i + 1] === '(') i = skipSubst(text, i + 2);
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      quoted = c;
      continue;
    }
    if ((c === '$' || c === '<' || c === '>') && text[i + 1] === '(') {
      i = skipSubst(text, i + 2);
      continue;
    }
    if (c === satisfy && level === 0 && commas > 0) {
      // bash passes over a `{` with a blank (or the start) before it and a blank or `}` after it.
      const blank = (x: string | undefined) => x === ' ' || x === '\t' || x === '\n';
      if (c === '{' && (i === 0 || blank(text[i - 1])) && (blank(text[i + 1]) || text[i + 1] === '}'))
        continue;
      return { at: i, kind };
    }
    if (c === '{') level++;
    else if (c === '}' && level > 0) level--;
    else if (satisfy === '}' && c === ',' && level === 0) {
      kind = 'comma';
      commas++;
    } else if (
      satisfy === '}' &&
      text.startsWith('..', i) &&
      text[i + 2] !== '}' &&
      level === 0 &&
      kind === null
    ) {
      kind = 'seq';
      commas++;
    }
  }
  return { at: text.length, kind };
}

// The index of the ) that closes a $( or <( whose text starts at `from` (the end when none does).
function skipSubst(text: Bytes, from: number): number {
  const close = closingOf(text, from, '(', ')');
  return close < 0 ? text.length : close;
}

const startsInt = (s: string) => /^[0-9]/.test(s) || (/^[-+]/.test(s) && /[0-9]/.test(s[1] ?? ''));
const isAlpha = (c: string | undefined) => c !== undefined && /^[A-Za-z]$/.test(c);

function validSeq(amble: Bytes): boolean {
  const at = amble.indexOf('..');
  if (at < 0) return false;
  const lhs = amble.slice(0, at);
  const rhs = amble.slice(at + 2);
  if (lhs.startsWith('.') || rhs === '') return false;
  const l = startsInt(lhs) ? 'int' : isAlpha(amble[0]) && amble[1] === '.' ? 'char' : null;
  const r = startsInt(rhs)
    ? 'int'
    : isAlpha(rhs[0]) && (rhs[1] === undefined || rhs[1] === '.')
      ? 'char'
      : null;
  return l !== null && l === r;
}

const INT = /^[-+]?[0-9]+$/;

// {x..y} or {x..y..step}: integers (zero-padded to the widest end written with a leading zero) or
// single letters, in either direction; null when the terms are not both of one kind.
function sequence(amble: Bytes): Bytes[] | null {
  const at = amble.indexOf('..');
  const lhs = amble.slice(0, at);
  const rest = amble.slice(at + 2);
  const more = rest.indexOf('..');
  const rhs = more < 0 ? rest : rest.slice(0, more);
  const stepText = more < 0 ? null : rest.slice(more + 2);
  if (lhs === '' || rhs === '' || (stepText !== null && !INT.test(stepText))) return null;
  let step = stepText === null ? 1 : Number(stepText);
  if (INT.test(lhs) && INT.test(rhs)) {
    const a = Number(lhs);
    const b = Number(rhs);
    if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b)) return null;
    return run(a, b, step)?.map((n) => pad(n, widthOf(lhs, rhs))) ?? null;
  }
  if (isAlpha(lhs) && isAlpha(rhs) && lhs.length === 1 && rhs.length === 1) {
    if (step === 0) step = 1;
    return run(lhs.charCodeAt(0), rhs.charCodeAt(0), step)?.map((n) => String.fromCharCode(n)) ?? null;
  }
  return null;
}

// bash leaves a sequence of more words than an int counts as written; safe-run holds fewer still.
const BASH_MAX_WORDS = 2 ** 31 - 4;
const MAX_WORDS = 2 ** 24;

function run(start: number, end: number, stepIn: number): number[] | null {
  let step = stepIn === 0 ? 1 : stepIn;
  if (start < end === step < 0) step = -step;
  const out: number[] = [];
  const count = Math.floor(Math.abs(end - start) / Math.abs(step)) + 1;
  if (count > BASH_MAX_WORDS) return null;
  if (count > MAX_WORDS)
    throw new ExpansionError(`brace expansion: ${count} words, more than safe-run makes (${MAX_WORDS})`, 1);
  for (let k = 0, n = start; k < count; k++, n += step) out.push(n);
  return out;
}

function widthOf(lhs: string, rhs: string): number {
  const padded = (s: string) =>
    (s.length > 1 && s[0] === '0') || (s.length > 2 && s[0] === '-' && s[1] === '0');
  if (!padded(lhs) && !padded(rhs)) return 0;
  return Math.max(lhs.length, rhs.length);
}

function pad(n: number, width: number): string {
  const digits = String(Math.abs(n));
  if (width === 0) return String(n);
  return (n < 0 ? '-' : '') + digits.padStart(width - (n < 0 ? 1 : 0), '0');
}

// Whether `text` has a `{`, then a `,` or `..`, then a `}`, in that order (quoted or not: this
// over-approximates what brace expansion needs, never under).
function braceOrderIn(text: Bytes): boolean {
  let stage = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (stage === 0 && c === '{') stage = 1;
    else if (stage === 1 && (c === ',' || (c === '.' && text[i + 1] === '.'))) stage = 2;
    else if (stage === 2 && c === '}') return true;
  }
  return false;
}
