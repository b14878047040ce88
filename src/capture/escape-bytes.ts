import { isUtf8 } from 'node:buffer';

// Kept bytes as text: valid UTF-8 as it is, every byte that is not part of a valid UTF-8 character
// as \xHH (a Latin-1 "é" is \xE9), counted. One stray byte no longer makes a whole stream "binary".

interface EscapedText {
  text: string;
  // How many bytes were shown as \xHH.
  escaped: number;
}

// Past this share of bytes that are not UTF-8 (and this many), the bytes are data (a compressed
// stream, an image), and showing them escaped would only fill the report; a short line with one
// Latin-1 byte is text.
const MAX_ESCAPED_SHARE = 1 / 8;
const ALWAYS_SHOWN = 16;

// The length of the UTF-8 sequence a lead byte starts; 0 for a byte that cannot start one.
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

function hex(byte: number): string {
  return `\\x${byte.toString(16).toUpperCase().padStart(2, '0')}`;
}

// Every byte of `buf` in text form; linear, and a plain toString() when it is all UTF-8.
export function escapeBytes(buf: Buffer): EscapedText {
  if (isUtf8(buf)) return { text: buf.toString(), escaped: 0 };
  const parts: string[] = [];
  let escaped = 0;
  let run = 0;
  let i = 0;
  while (i < buf.length) {
    const n = sequenceLength(buf[i]!);
    if (n > 0 && i + n <= buf.length && (n === 1 || isUtf8(buf.subarray(i, i + n)))) {
      i += n;
      continue;
    }
    if (i > run) parts.push(buf.toString('utf8', run, i));
    parts.push(hex(buf[i]!));
    escaped += 1;
    i += 1;
    run = i;
  }
  if (run < buf.length) parts.push(buf.toString('utf8', run));
  return { text: parts.join(''), escaped };
}

// The kept bytes as text, or null when they are data: a NUL byte, or more than 16 bytes and more
// than an eighth of them not UTF-8.
export function keptText(buf: Buffer): EscapedText | null {
  if (buf.indexOf(0) !== -1) return null;
  const shown = escapeBytes(buf);
  const data = shown.escaped > ALWAYS_SHOWN && shown.escaped > buf.length * MAX_ESCAPED_SHARE;
  return data ? null : shown;
}
