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

// A code point as UTF-8 bytes (what \u and \U give in a UTF-8 locale).
function utf8Bytes(code: number): Bytes {
  return Buffer.from(String.fromCodePoint(code), 'utf8').toString('latin1');
}

// $'...': bash's ANSI-C escapes. Bytes up to the first NUL (bash's strings end there).
export function decodeAnsi(raw: Bytes): Bytes {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c !== '\\' || i + 1 >= raw.length) {
      out += c;
      continue;
    }
    const { text, next } = escapeAt(raw, i + 1, 'ansi');
    out += text;
    i = next - 1;
  }
  const nul = out.indexOf('\0');
  return nul < 0 ? out : out.slice(0, nul);
}

// One escape after a backslash (at `at`, the character after it): what it gives and where the text
// goes on. `echo` (echo -e, printf's %b) differs from $'...' in octal (\0NNN) and a few letters.
export function escapeAt(raw: Bytes, at: number, style: 'ansi' | 'echo'): { text: Bytes; next: number } {
  const c = raw[at]!;
  if (style === 'echo' && (c === "'" || c === '"' || c === '?')) return { text: `\\${c}`, next: at + 1 };
  if (c in SIMPLE) return { text: SIMPLE[c]!, next: at + 1 };
  if (c === 'c' && style === 'ansi' && at + 1 < raw.length) {
    const ch = raw[at + 1]!;
    const code = ch === '?' ? 0x7f : ch.toUpperCase().charCodeAt(0) & 0x1f;
    return { text: String.fromCharCode(code), next: at + 2 };
  }
  if (/[0-7]/.test(c) || (style === 'echo' && c === '0')) {
    const start = style === 'echo' && c === '0' ? at + 1 : at;
    const digits = /^[0-7]{1,3}/.exec(raw.slice(start, start + 3))?.[0] ?? '';
    return {
      text: String.fromCharCode(Number.parseInt(digits || '0', 8) & 0xff),
      next: start + digits.length,
    };
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
    const code = Number.parseInt(digits, 16);
    const text = code > 0x10ffff ? '' : code === 0 ? '' : utf8Bytes(code);
    return { text, next: at + 1 + digits.length };
  }
  return { text: `\\${c}`, next: at + 1 };
}
