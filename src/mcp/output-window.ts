import { charBoundaryAfter, charBoundaryBefore, LF } from '../capture/cut-points.js';
import { keptText } from '../capture/escape-bytes.js';

// What a window kept of the bytes it saw: the head and tail as text, and the cut between them, with
// the line numbers it covers (counted from the window's first line), for a reader who wants the rest.
export interface WindowText {
  head: string;
  tail: string;
  // Null when nothing was cut: then `tail` is empty and `head` is everything.
  cut: { bytes: number; fromLine: number; toLine: number; fromByte: number } | null;
  // Every byte the window saw.
  bytes: number;
  // The bytes kept are data, not text (a NUL byte, or mostly not UTF-8): `head` and `tail` are empty.
  binary: boolean;
}

function newlines(buffer: Buffer): number {
  let count = 0;
  for (let at = buffer.indexOf(LF); at !== -1; at = buffer.indexOf(LF, at + 1)) count += 1;
  return count;
}

// Keeps the first and last `budget / 2` bytes of a stream, counts every byte and line, and at the end
// cuts the two at line ends where one is near (else at a character boundary). Memory: the budget and
// one chunk, whatever the stream's length. `startByte` and `startLine` place the window in a longer
// stream (a job read in parts), so the cut is said in that stream's lines and bytes.
export class OutputWindow {
  private readonly headCap: number;
  private readonly tailCap: number;
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;
  private lines = 0;

  constructor(
    budget: number,
    readonly startByte = 0,
    readonly startLine = 1,
  ) {
    this.headCap = Math.floor(Math.max(0, budget) / 2);
    this.tailCap = Math.max(0, budget) - this.headCap;
  }

  get bytes(): number {
    return this.total;
  }

  get lineCount(): number {
    return this.lines;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    this.lines += newlines(chunk);
    let rest = chunk;
    if (this.headBytes < this.headCap) {
      const take = Math.min(this.headCap - this.headBytes, rest.length);
      this.head.push(rest.subarray(0, take));
      this.headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0) return;
    this.tail.push(rest);
    this.tailBytes += rest.length;
    while (this.tail.length > 1 && this.tailBytes - this.tail[0]!.length >= this.tailCap) {
      this.tailBytes -= this.tail.shift()!.length;
    }
  }

  // The last `count` lines seen (within the tail kept), for a progress message.
  lastLines(count: number): string {
    const kept = Buffer.concat([...(this.tail.length > 0 ? [] : this.head), ...this.tail]);
    const text = kept.toString('utf8').replace(/\n$/, '');
    return text.split('\n').slice(-count).join('\n');
  }

  read(): WindowText {
    const head = Buffer.concat(this.head);
    let tail = Buffer.concat(this.tail);
    if (this.total <= this.headCap + this.tailCap) {
      const all = keptText(Buffer.concat([head, tail]));
      return { head: all?.text ?? '', tail: '', cut: null, bytes: this.total, binary: all === null };
    }
    if (tail.length > this.tailCap) tail = tail.subarray(tail.length - this.tailCap);
    const shownHead = head.subarray(0, snapHead(head));
    const shownTail = tail.subarray(snapTail(tail));
    const cutBytes = this.total - shownHead.length - shownTail.length;
    const fromLine = this.startLine + newlines(shownHead);
    const cutLines = this.lines - newlines(shownHead) - newlines(shownTail);
    const [headText, tailText] = [keptText(shownHead), keptText(shownTail)];
    const binary = headText === null || tailText === null;
    return {
      head: binary ? '' : headText.text,
      tail: binary ? '' : tailText.text,
      binary,
      cut: {
        bytes: cutBytes,
        fromLine,
        toLine: Math.max(fromLine, fromLine + cutLines - (shownTail.length > 0 ? 1 : 0)),
        fromByte: this.startByte + shownHead.length,
      },
      bytes: this.total,
    };
  }
}

// Where the head is cut: after its last newline when that keeps at least half of it, else at a
// character boundary.
function snapHead(head: Buffer): number {
  const end = head.lastIndexOf(LF);
  if (end !== -1 && end + 1 >= head.length / 2) return end + 1;
  return charBoundaryBefore(head, head.length);
}

// Where the tail starts: after its first newline when that keeps at least half of it, else at the
// first character boundary.
function snapTail(tail: Buffer): number {
  const start = tail.indexOf(LF);
  if (start !== -1 && start + 1 <= tail.length / 2) return start + 1;
  return charBoundaryAfter(tail, 0);
}
