import type { Bytes } from '../syntax/source.js';
import { attributeLetters } from './param-text.js';
import { generatedValue } from './random-variable.js';
import { sortedKeys, type Value, type Variable } from './variable.js';

// How declare -p (and export -p, readonly -p) writes a variable back: `declare -FLAGS name="value"`.
// `utf8`: the locale's characters are UTF-8 sequences (else a byte above 127 is no printable one).
export function declaration(name: string, variable: Variable, utf8: boolean): Bytes {
  const quoteValue = (text: Bytes) => quoted(text, utf8);
  const flags = flagsOf(variable);
  // ($RANDOM and $SRANDOM: a value read now, as bash's declare -p gives.)
  const generated = generatedValue(variable);
  const value: Value | null = generated === undefined ? variable.value : { kind: 'scalar', value: generated };
  if (!value) return `declare ${flags} ${name}`;
  if (value.kind === 'scalar') return `declare ${flags} ${name}=${quoteValue(value.value)}`;
  if (value.kind === 'indexed') {
    const items = sortedKeys(value.items).map((k) => `[${k}]=${quoteValue(value.items.get(k)!)}`);
    return `declare ${flags} ${name}=(${items.join(' ')})`;
  }
  const items = value.items.entries().map(([k, v]) => `[${quoteKey(k, utf8)}]=${quoteValue(v)} `);
  return `declare ${flags} ${name}=(${items.join('')})`;
}

// ${a[@]@K}: an array's subscripts (an associative array's keys quoted as declare -p quotes them)
// and values (quoted), each pair followed by a space in an associative array, between pairs in an
// indexed one, as bash writes them.
export function keyValuePairs(value: Value & { kind: 'indexed' | 'assoc' }, utf8: boolean): Bytes {
  if (value.kind === 'indexed')
    return sortedKeys(value.items)
      .map((k) => `${k} ${quoted(value.items.get(k)!, utf8)}`)
      .join(' ');
  return value.items
    .entries()
    .map(([k, v]) => `${quoteKey(k, utf8)} ${quoted(v, utf8)} `)
    .join('');
}

// The attribute letters in bash's order, or -- for none.
function flagsOf(variable: Variable): string {
  const out = attributeLetters(variable.attrs, variable.value?.kind ?? null);
  return out === '' ? '--' : `-${out}`;
}

// A value in double quotes with " $ \ ` escaped; with a character that is not printable, bash's
// $'...' instead.
function quoted(value: Bytes, utf8: boolean): Bytes {
  if (unprintable(value, utf8).length > 0) return ansiQuote(value, utf8);
  return `"${value.replace(/["$\\`]/g, (c) => `\\${c}`)}"`;
}

// An associative array's key: as it is, unless it holds what the shell would read as syntax (or is
// a lone @ or *): then quoted as a value.
function quoteKey(key: Bytes, utf8: boolean): Bytes {
  if (unprintable(key, utf8).length > 0) return ansiQuote(key, utf8);
  if (/[\s'"\\|&;()<>!{}*[?\]^$`]|^[~#]|[=:]~/.test(key) || key === '@') return quoted(key, utf8);
  return key;
}

// The offsets of the bytes that are no printable character: control characters, and bytes above 127
// that are not part of a UTF-8 sequence (all of them outside a UTF-8 locale).
function unprintable(value: Bytes, utf8: boolean): number[] {
  const out: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) out.push(i);
    else if (code >= 0x80) {
      const length = utf8 ? sequenceLength(value, i) : 0;
      if (length === 0) out.push(i);
      else i += length - 1;
    }
  }
  return out;
}

// The length of the UTF-8 sequence at `at` (its bytes as characters 0-255), or 0 for none.
function sequenceLength(value: Bytes, at: number): number {
  const lead = value.charCodeAt(at);
  const length =
    lead >= 0xc2 && lead <= 0xdf
      ? 2
      : lead >= 0xe0 && lead <= 0xef
        ? 3
        : lead >= 0xf0 && lead <= 0xf4
          ? 4
          : 0;
  for (let k = 1; k < length; k++) {
    const next = value.charCodeAt(at + k);
    if (!(next >= 0x80 && next <= 0xbf)) return 0;
  }
  return length;
}

const NAMED: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\x1b': '\\E',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  "'": "\\'",
  '\\': '\\\\',
};

function ansiQuote(value: Bytes, utf8: boolean): Bytes {
  const bad = new Set(unprintable(value, utf8));
  let out = "$'";
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c in NAMED) out += NAMED[c];
    else if (bad.has(i)) out += `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`;
    else out += c;
  }
  return `${out}'`;
}
