// Where a byte stream may be cut so that what is shown stays readable: at a line boundary when one
// is near, otherwise at a UTF-8 character boundary. Shared by the keeper, the live cap and the
// line prefixer so that all three cut the same way.

export const LF = 0x0a;
export const EMPTY = Buffer.alloc(0);

// How far a cut may move to reach a line boundary: an eighth of the piece, at most 2 KiB. Further
// than that, showing more of a long line is worth more than ending it neatly.
export function snapWindow(length: number): number {
  return Math.min(2048, Math.floor(length / 8));
}

function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if ((lead & 0xe0) === 0xc0) return 2;
  if ((lead & 0xf0) === 0xe0) return 3;
  if ((lead & 0xf8) === 0xf0) return 4;
  return 1;
}

// The largest position <= end that does not split a UTF-8 character of buf[0, end).
export function charBoundaryBefore(buf: Buffer, end: number): number {
  const stop = Math.max(0, end - 4);
  for (let i = end - 1; i >= stop; i -= 1) {
    const byte = buf[i]!;
    if (isContinuation(byte)) continue;
    return i + sequenceLength(byte) > end ? i : end;
  }
  return end;
}

// The smallest position >= start that is not in the middle of a UTF-8 character (skips at most
// three continuation bytes; more than that is not UTF-8 anyway).
export function charBoundaryAfter(buf: Buffer, start: number): number {
  const stop = Math.min(buf.length, start + 3);
  let i = start;
  while (i < stop && isContinuation(buf[i]!)) i += 1;
  return i;
}

// Where to end a kept head of buf[0, end): right there if the cut already falls on a line boundary
// (`next` is the byte that follows, or -1 when unknown), else after the last newline within the
// window, else at a character boundary.
export function snapEnd(buf: Buffer, end: number, next: number, window: number): number {
  if (end === 0 || buf[end - 1] === LF || next === LF) return end;
  const newline = buf.lastIndexOf(LF, end - 1);
  if (newline !== -1 && newline >= end - window) return newline + 1;
  return charBoundaryBefore(buf, end);
}

// Where to start a kept tail of buf[start, length): there if the byte before (`prev`, -1 when
// unknown) ends a line, else after the first newline within the window, else at a character
// boundary.
export function snapStart(buf: Buffer, start: number, prev: number, window: number): number {
  if (start >= buf.length || prev === LF) return start;
  const newline = buf.indexOf(LF, start);
  if (newline !== -1 && newline < start + window) return newline + 1;
  return charBoundaryAfter(buf, start);
}

// 1048000 -> "1,048,000", the way the markers print counts.
export function groupDigits(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
