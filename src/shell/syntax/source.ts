import type { Pos } from './nodes.js';

// Shell text as bash reads it: bytes. A JS string whose every code unit is one byte (latin1 of the
// UTF-8 text), so that `$'\xe9'`, a Latin-1 file name or a NUL-free binary value are held exactly as
// bash holds them. Offsets are byte offsets; columns are counted in characters for people.
export type Bytes = string;

export function toBytes(text: string): Bytes {
  return Buffer.from(text, 'utf8').toString('latin1');
}

// The bytes as text for a person or for Node (invalid UTF-8 becomes U+FFFD).
export function fromBytes(bytes: Bytes): string {
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function bytesBuffer(bytes: Bytes): Buffer {
  return Buffer.from(bytes, 'latin1');
}

// Whether the bytes are valid UTF-8 (then fromBytes gives them back unchanged through Node's APIs).
export function isUtf8(bytes: Bytes): boolean {
  if (/^[\x00-\x7f]*$/.test(bytes)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytesBuffer(bytes));
    return true;
  } catch {
    return false;
  }
}

// The text being parsed, with where each line starts, so that any byte offset becomes a position.
export class Source {
  readonly text: Bytes;
  private readonly lineStarts: number[] = [0];
  // Positions' lines count from `firstLine` (text that bash numbers on from where it was found: eval's,
  // an ERR trap's action).
  private readonly lineShift: number;

  constructor(text: Bytes, firstLine = 1) {
    this.text = text;
    this.lineShift = firstLine - 1;
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
  }

  get length(): number {
    return this.text.length;
  }

  // The parser asks mostly in increasing order: counting columns on from the last answer keeps a long
  // line linear.
  private last = { offset: 0, line: 1, col: 1 };

  pos(offset: number): Pos {
    const line = this.lineOf(offset);
    let { offset: from, col } = this.last;
    if (this.last.line !== line || from > offset) {
      from = this.lineStarts[line - 1]!;
      col = 1;
    }
    for (let i = from; i < offset; i++) if ((this.text.charCodeAt(i) & 0xc0) !== 0x80) col++;
    this.last = { offset, line, col };
    return { offset, line: line + this.lineShift, col };
  }

  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  slice(from: number, to: number): Bytes {
    return this.text.slice(from, to);
  }
}
