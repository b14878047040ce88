import type { Bytes } from '../syntax/source.js';

const SIMPLE: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

// What \u and \U give, as bash makes it: below 0x80 the character; in a UTF-8 locale its UTF-8 bytes
// (any value up to 0x7fffffff, surrogates too, in the old 6-byte form); in another (C) the escape
// again, upper-case, in 4 digits up to 0xFFFF and 8 above; from 0x80000000 on, nothing.
function unicodeText(code: number, utf8: boolean): Bytes {
  if (code < 0x80) return String.fromCharCode(code);
  if (code > 0x7fffffff) return '';
  if (!utf8) return code <= 0xffff ? `\\u${hex(code, 4)}` : `\\U${hex(code, 8)}`;
  if (code < 0x800) return String.fromCharCode(0xc0 | (code >> 6), 0x80 | (code & 0x3f));
  const lead = [0, 0, 0, 0xe0, 0xf0, 0xf8, 0xfc];
  const count = code < 0x10000 ? 3 : code < 0x200000 ? 4 : code < 0x4000000 ? 5 : 6;
  let out = '';
  let rest = code;
  for (let k = 1; k < count; k++) {
    out = String.fromCharCode(0x80 | (rest & 0x3f)) + out;
    rest = Math.floor(rest / 64);
  }
  return String.fromCharCode(lead[count]! | rest) + out;
}

function hex(code: number, width: number): string {
  return code.toString(16).toUpperCase().padStart(width, '0');
}

// $'...': bash's ANSI-C escapes. Bytes up to the first NUL (bash's strings end there).
export function decodeAnsi(raw: Bytes, utf8 = true): Bytes {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c !== '\\' || i + 1 >= raw.length) {
      out += c;
      continue;
    }
    const { text, next } = escapeAt(raw, i + 1, 'ansi', utf8);
    out += text;
    i = next - 1;
  }
  const nul = out.indexOf('\0');
  return nul < 0 ? out : out.slice(0, nul);
}

// One escape after a backslash (at `at`, the character after it): what it gives and where the text
// goes on. `echo` (echo -e, printf's %b) differs from $'...' in octal (\0NNN) and a few letters.
// `utf8`: the locale's characters are UTF-8 (for \u and \U).
export function escapeAt(
  raw: Bytes,
  at: number,
  style: 'ansi' | 'echo',
  utf8 = true,
): { text: Bytes; next: number } {
  const c = raw[at]!;
  if (style === 'echo' && (c === "'" || c === '"' || c === '?')) return { text: `\\${c}`, next: at + 1 };
  if (c in SIMPLE) return { text: SIMPLE[c]!, next: at + 1 };
  if (c === 'c' && style === 'ansi' && at + 1 < raw.length) {
    const ch = raw[at + 1]!;
    const code = ch === '?' ? 0x7f : ch.toUpperCase().charCodeAt(0) & 0x1f;
    // (\c\\ is control-backslash: the escaped backslash is one character.)
    return { text: String.fromCharCode(code), next: ch === '\\' && raw[at + 2] === '\\' ? at + 3 : at + 2 };
  }
  if (/[0-7]/.test(c) || (style === 'echo' && c === '0')) {
    const start = style === 'echo' && c === '0' ? at + 1 : at;
    const digits = /^[0-7]{1,3}/.exec(raw.slice(start, start + 3))?.[0] ?? '';
    return {
      text: String.fromCharCode(Number.parseInt(digits || '0', 8) & 0xff),
      next: start + digits.length,
    };
  }
  if (c === 'x' && style === 'ansi' && raw[at + 1] === '{') {
    // $'\x{HHH}': every hex digit up to a `}` (which is dropped), the value's low byte; none is NUL.
    const digits = /^[0-9a-fA-F]*/.exec(raw.slice(at + 2))![0];
    const end = at + 2 + digits.length;
    const value = digits === '' ? 0 : Number.parseInt(digits.slice(-2), 16);
    return { text: String.fromCharCode(value), next: raw[end] === '}' ? end + 1 : end };
  }
  if (c === 'x') {
    const digits = /^[0-9a-fA-F]{1,2}/.exec(raw.slice(at + 1, at + 3))?.[0];
    if (!digits) return { text: '\\x', next: at + 1 };
    return { text: String.fromCharCode(Number.parseInt(digits, 16)), next: at + 1 + digits.length };
  }
  if (c === 'u' || c === 'U') {
    const max = c === 'u' ? 4 : 8;
    const digits = new RegExp(`^[0-9a-fA-F]{1,${max}}`).exec(raw.slice(at + 1, at + 1 + max))?.[0];
    if (!digits) return { text: `\\${c}`, next: at + 1 };
    return { text: unicodeText(Number.parseInt(digits, 16), utf8), next: at + 1 + digits.length };
  }
  return { text: `\\${c}`, next: at + 1 };
}
