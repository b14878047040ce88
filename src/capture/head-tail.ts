import { EMPTY, groupDigits, LF, snapEnd, snapStart, snapWindow } from './cut-points.js';
import { escapeBytes, keptText } from './escape-bytes.js';
import { maskBuffer, StreamMasker, secretEndAt } from './mask.js';

// What the report keeps of one stream: the StreamReport fields the keeper can know.
export interface KeptStream {
  bytes: number;
  truncated: boolean;
  omittedBytes: number;
  text: string | null;
  binary: boolean;
  // Bytes of `text` that are not UTF-8, shown as \xHH; absent when none.
  escapedBytes?: number;
}

function escapedField(count: number): { escapedBytes?: number } {
  return count > 0 ? { escapedBytes: count } : {};
}

export function omissionMarker(omittedBytes: number): string {
  return `[... safe-run: ${groupDigits(omittedBytes)} bytes omitted ...]\n`;
}

// Buffers start small and double up to their cap, so a large cap costs nothing for a small stream.
const INITIAL_CAPACITY = 64 * 1024;

function grow(buf: Buffer, used: number, needed: number, cap: number): Buffer {
  if (needed <= buf.length) return buf;
  const size = Math.min(cap, Math.max(needed, buf.length * 2, Math.min(cap, INITIAL_CAPACITY)));
  const bigger = Buffer.allocUnsafe(size);
  buf.copy(bigger, 0, 0, used);
  return bigger;
}

// Keeps the first half and the last half of a capped amount of a stream (the end of stderr is
// where errors are), counts every byte, and at the end joins the two at line boundaries with a
// marker saying how much was left out. Memory: the cap plus one byte, whatever the stream length.
// Pass the run's secrets to have the kept text masked; counts stay those of the raw stream.
export class HeadTailKeeper {
  private readonly headCap: number;
  private readonly tailCap: number;
  private bytes = 0;
  private head: Buffer = EMPTY;
  private headLength = 0;
  // The first byte after the head, to know whether the head already ends a line.
  private afterHead = -1;
  // The tail is a ring of tailCap + 1 bytes: the extra (oldest) byte says whether the kept tail
  // starts a line. The ring grows to its size before it ever wraps.
  private ring: Buffer = EMPTY;
  private ringLength = 0;
  private ringWrite = 0;

  constructor(
    readonly capBytes: number,
    private readonly secrets: readonly string[] = [],
  ) {
    if (!Number.isSafeInteger(capBytes) || capBytes < 0) {
      throw new RangeError(`capBytes must be a whole number >= 0, got ${capBytes}`);
    }
    this.headCap = Math.floor(capBytes / 2);
    this.tailCap = capBytes - this.headCap;
  }

  get retainedBytes(): number {
    return this.head.length + this.ring.length;
  }

  push(chunk: Buffer): void {
    this.bytes += chunk.length;
    if (this.capBytes === 0 || chunk.length === 0) return;
    let offset = 0;
    if (this.headLength < this.headCap) {
      const take = Math.min(this.headCap - this.headLength, chunk.length);
      this.head = grow(this.head, this.headLength, this.headLength + take, this.headCap);
      chunk.copy(this.head, this.headLength, 0, take);
      this.headLength += take;
      offset = take;
      if (offset === chunk.length) return;
    }
    if (this.afterHead === -1) this.afterHead = chunk[offset]!;
    this.pushTail(chunk, offset);
  }

  private pushTail(chunk: Buffer, offset: number): void {
    const size = this.tailCap + 1;
    const n = chunk.length - offset;
    this.ring = grow(this.ring, this.ringLength, Math.min(size, this.ringLength + n), size);
    if (n >= size) {
      chunk.copy(this.ring, 0, chunk.length - size);
      this.ringWrite = 0;
      this.ringLength = size;
      return;
    }
    const first = Math.min(n, size - this.ringWrite);
    chunk.copy(this.ring, this.ringWrite, offset, offset + first);
    if (first < n) chunk.copy(this.ring, 0, offset + first);
    this.ringWrite = (this.ringWrite + n) % size;
    this.ringLength = Math.min(size, this.ringLength + n);
  }

  // The tail in stream order (oldest byte first).
  private tail(): Buffer {
    if (this.ringLength < this.tailCap + 1) return this.ring.subarray(0, this.ringLength);
    if (this.ringWrite === 0) return this.ring;
    return Buffer.concat([this.ring.subarray(this.ringWrite), this.ring.subarray(0, this.ringWrite)]);
  }

  finish(): KeptStream {
    const bytes = this.bytes;
    if (this.capBytes === 0) {
      return { bytes, truncated: bytes > 0, omittedBytes: bytes, text: null, binary: false };
    }
    const head = this.head.subarray(0, this.headLength);
    const tail = this.tail();
    if (bytes <= this.capBytes) {
      const all = tail.length === 0 ? head : Buffer.concat([head, tail]);
      const shown = keptText(this.secrets.length > 0 ? maskBuffer(all, this.secrets) : all);
      if (!shown) return { bytes, truncated: false, omittedBytes: 0, text: null, binary: true };
      const text = shown.text;
      return {
        bytes,
        truncated: false,
        omittedBytes: 0,
        text,
        binary: false,
        ...escapedField(shown.escaped),
      };
    }
    return this.joinCut(head, tail);
  }

  private joinCut(fullHead: Buffer, ring: Buffer): KeptStream {
    const bytes = this.bytes;
    let head = fullHead.subarray(
      0,
      snapEnd(fullHead, fullHead.length, this.afterHead, snapWindow(fullHead.length)),
    );
    // ring[0] is the byte just before the kept tail; it is never shown.
    const start = snapStart(ring, 1, ring[0]!, snapWindow(ring.length - 1));
    let tail = ring.subarray(start);
    const binary = keptText(head) === null || keptText(tail) === null;
    let headText = head;
    let tailText = tail;
    if (!binary && this.secrets.length > 0) {
      // A secret cut in two by the omission must not show either half.
      const masker = new StreamMasker(this.secrets);
      headText = masker.push(head);
      head = head.subarray(0, head.length - masker.heldBytes);
      tail = tail.subarray(secretEndAt(tail, 0, ring[start - 1]!, this.secrets));
      tailText = maskBuffer(tail, this.secrets);
    }
    const omittedBytes = bytes - head.length - tail.length;
    if (binary) return { bytes, truncated: true, omittedBytes, text: null, binary: true };
    const endsLine = headText.length === 0 || headText[headText.length - 1] === LF;
    const [first, last] = [escapeBytes(headText), escapeBytes(tailText)];
    const text = `${first.text}${endsLine ? '' : '\n'}${omissionMarker(omittedBytes)}${last.text}`;
    return {
      bytes,
      truncated: true,
      omittedBytes,
      text,
      binary: false,
      ...escapedField(first.escaped + last.escaped),
    };
  }
}
