import type { Scanned, Word, WordPart } from '../model/shell-syntax.js';
import { refuseConstruct, refuseSyntax } from './refuse.js';
import { scanDollar } from './scan-dollar.js';
import type { SourceText } from './source-text.js';

export type { Scanned } from '../model/shell-syntax.js';

const META = new Set([' ', '\t', '\n', '|', '&', ';', '<', '>', '(', ')']);

export function isMeta(c: string | undefined): boolean {
  return c === undefined || META.has(c);
}

function newScan(): Scanned {
  return { parts: [], script: '', value: '', expands: false, substitutions: [] };
}

function addLiteral(out: WordPart[], text: string, col: number): void {
  const last = out.at(-1);
  if (last?.kind === 'literal') last.text += text;
  else out.push({ kind: 'literal', text, col });
}

// Reads one word starting at index `start` up to the first unquoted metacharacter.
export function scanWord(source: SourceText, start: number): { word: Word; end: number } {
  const { chars } = source;
  const out = newScan();
  let i = start;
  while (!isMeta(chars[i])) {
    const c = chars[i]!;
    const col = i + 1;
    if (c === '\\') {
      i = scanBackslash(source, i, out);
    } else if (c === "'") {
      i = scanSingleQuoted(source, i, out);
    } else if (c === '"') {
      i = scanDoubleQuoted(source, i, out);
    } else if (c === '$') {
      i = scanDollar(source, i, false, out);
    } else if (c === '`') {
      refuseConstruct('syntax.command-substitution', 'command substitution `...`', col, 'runs a command');
    } else {
      if ('*?[{~'.includes(c)) {
        out.expands = true;
        out.parts.push(c === '~' ? { kind: 'tilde', col } : { kind: 'pattern', text: c, col });
      } else {
        addLiteral(out.parts, c, col);
      }
      out.script += c;
      out.value += c;
      i += 1;
    }
  }
  const word: Word = {
    raw: source.slice(start, i),
    col: start + 1,
    line: source.lineAt(start),
    parts: out.parts,
    literal: out.expands ? null : out.value,
    script: out.script,
    substitutions: out.substitutions,
  };
  return { word, end: i };
}

// A backslash outside quotes: a line continuation, or the next character taken as it is. Returns
// the index after it.
function scanBackslash(source: SourceText, i: number, out: Scanned): number {
  const { chars } = source;
  const col = i + 1;
  const next = chars[i + 1];
  if (next === '\n') {
    // A line continuation disappears.
    out.script += '\\\n';
    i += 2;
  } else if (next === undefined) {
    out.script += '\\\\';
    out.value += '\\';
    addLiteral(out.parts, '\\', col);
    i += 1;
  } else {
    out.script += `\\${next}`;
    out.value += next;
    addLiteral(out.parts, next, col);
    i += 2;
  }
  return i;
}

// A '...' string: taken as it is. Returns the index after the closing quote.
function scanSingleQuoted(source: SourceText, i: number, out: Scanned): number {
  const { chars } = source;
  const col = i + 1;
  const close = chars.indexOf("'", i + 1);
  if (close < 0) {
    refuseSyntax(
      'syntax.unterminated',
      col,
      `the single quote at column ${col} is never closed; add the closing ' (to pass a quote as text, write \\' or "'")`,
    );
  }
  const text = source.slice(i + 1, close);
  out.parts.push({ kind: 'single-quoted', text, col });
  out.script += `'${text}'`;
  out.value += text;
  i = close + 1;
  return i;
}

// A "..." string: its escapes, and the expansions inside it. Returns the index after the closing quote.
export function scanDoubleQuoted(source: SourceText, open: number, out: Scanned): number {
  const { chars } = source;
  const inner = newScan();
  inner.substitutions = out.substitutions;
  let i = open + 1;
  for (;;) {
    const c = chars[i];
    if (c === undefined) {
      refuseSyntax(
        'syntax.unterminated',
        open + 1,
        `the double quote at column ${open + 1} is never closed; add the closing " (to pass a quote as text, write \\" or '"')`,
      );
    }
    if (c === '"') break;
    if (c === '\\' && chars[i + 1] !== undefined && '$`"\\\n'.includes(chars[i + 1]!)) {
      const next = chars[i + 1]!;
      inner.script += `\\${next}`;
      if (next !== '\n') {
        inner.value += next;
        addLiteral(inner.parts, next, i + 1);
      }
      i += 2;
    } else if (c === '$') {
      i = scanDollar(source, i, true, inner);
    } else if (c === '`') {
      refuseConstruct('syntax.command-substitution', 'command substitution `...`', i + 1, 'runs a command');
    } else {
      inner.script += c;
      inner.value += c;
      addLiteral(inner.parts, c, i + 1);
      i += 1;
    }
  }
  out.parts.push({ kind: 'double-quoted', parts: inner.parts, col: open + 1 });
  out.script += `"${inner.script}"`;
  out.value += inner.value;
  out.expands ||= inner.expands;
  return i + 1;
}
