import type { Bytes } from '../syntax/source.js';
import { attributeLetters } from './param-text.js';
import { generatedValue } from './random-variable.js';
import { sortedKeys, type Value, type Variable } from './variable.js';

// How declare -p (and export -p, readonly -p) writes a variable back: `declare -FLAGS name="value"`.
export function declaration(name: string, variable: Variable): Bytes {
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
  const items = value.items.entries().map(([k, v]) => `[${quoteKey(k)}]=${quoteValue(v)} `);
  return `declare ${flags} ${name}=(${items.join('')})`;
}

// The attribute letters in bash's order, or -- for none.
function flagsOf(variable: Variable): string {
  const out = attributeLetters(variable.attrs, variable.value?.kind ?? null);
  return out === '' ? '--' : `-${out}`;
}

// A value in double quotes with " $ \ ` escaped; with control characters, bash's $'...' instead.
function quoteValue(value: Bytes): Bytes {
  if (/[\x01-\x1f\x7f]/.test(value)) return ansiQuote(value);
  return `"${value.replace(/["$\\`]/g, (c) => `\\${c}`)}"`;
}

function quoteKey(key: Bytes): Bytes {
  if (/^[A-Za-z0-9_.@%+,:/-]+$/.test(key)) return key;
  return quoteValue(key);
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

function ansiQuote(value: Bytes): Bytes {
  let out = "$'";
  for (const c of value) {
    const code = c.charCodeAt(0);
    if (c in NAMED) out += NAMED[c];
    else if (code < 0x20 || code === 0x7f) out += `\\${code.toString(8).padStart(3, '0')}`;
    else out += c;
  }
  return `${out}'`;
}
