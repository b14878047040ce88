import type { Bytes } from '../syntax/source.js';

// A word as set -x prints it (bash 5.2's xtrace_print_word_list): '' when empty; in single quotes
// when it holds a character the shell would read specially; else as $'...' when it holds one that
// does not print (a control character, a byte that is no character of the locale); else as it is.
export function traceQuote(word: Bytes, utf8: boolean): string {
  if (word === '') return "''";
  if (hasShellMetas(word)) return `'${word.replaceAll("'", `'\\''`)}'`;
  const pieces = piecesOf(word, utf8);
  if (pieces.every((piece) => piece.printable)) return word;
  return `$'${pieces.map(ansiPiece).join('')}'`;
}

const METAS = ' \t\n\'"\\|&;()<>!{}*[?]^$`';

function hasShellMetas(word: Bytes): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = word[i]!;
    if (METAS.includes(c)) return true;
    if (c === '~' && (i === 0 || word[i - 1] === '=' || word[i - 1] === ':')) return true;
    if (c === '#' && i === 0) return true;
  }
  return false;
}

interface Piece {
  bytes: Bytes;
  printable: boolean;
}

// The word's characters: a printable ASCII one, a printable character of a UTF-8 locale (its bytes),
// or a single byte that does not print.
function piecesOf(word: Bytes, utf8: boolean): Piece[] {
  const pieces: Piece[] = [];
  for (let i = 0; i < word.length; ) {
    const code = word.charCodeAt(i);
    const length = utf8 && code >= 0x80 ? utf8Length(word, i) : 0;
    if (length > 0) {
      const bytes = word.slice(i, i + length);
      const char = Buffer.from(bytes, 'latin1').toString('utf8');
      pieces.push({ bytes, printable: !/[\p{Cc}\p{Cn}\p{Cs}\p{Zl}\p{Zp}]/u.test(char) });
      i += length;
      continue;
    }
    pieces.push({ bytes: word[i]!, printable: code >= 0x20 && code < 0x7f });
    i++;
  }
  return pieces;
}

// The length of a valid UTF-8 sequence at `i`, or 0.
function utf8Length(word: Bytes, i: number): number {
  const lead = word.charCodeAt(i);
  const length = lead >= 0xf0 && lead < 0xf5 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 ? 2 : 0;
  if (length === 0 || lead >= 0xf5) return 0;
  for (let k = 1; k < length; k++) {
    const next = word.charCodeAt(i + k);
    if (!(next >= 0x80 && next < 0xc0)) return 0;
  }
  const char = Buffer.from(word.slice(i, i + length), 'latin1').toString('utf8');
  return char.includes('\ufffd') ? 0 : length;
}

const ESCAPES: Record<string, string> = {
  '\x1b': '\\E',
  '\x07': '\\a',
  '\x0b': '\\v',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\\': '\\\\',
  "'": "\\'",
};

function ansiPiece(piece: Piece): string {
  const named = ESCAPES[piece.bytes];
  if (named !== undefined) return named;
  if (piece.printable) return piece.bytes;
  return [...piece.bytes].map((byte) => `\\${byte.charCodeAt(0).toString(8).padStart(3, '0')}`).join('');
}
