import { monotonicMs } from '../monotonic-ms.js';
import { maskCut } from './mask-cut.js';

// Keeps the end of a stream (at most `keep` bytes) so a progress display can show the last line a
// stage printed without holding the stream. Copies: the reader reuses its buffer.
export class RecentLine {
  private tail: Buffer = Buffer.alloc(0);
  // True once bytes were dropped from the front: the first line kept may be cut.
  private dropped = false;
  // monotonicMs() of the last byte, or null before any.
  at: number | null = null;

  // `secrets`: masked in the line, also the piece of one left where the line is cut (the kept
  // window's start, or a line still being written).
  constructor(
    private readonly keep = 512,
    private readonly secrets: readonly string[] = [],
  ) {}

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.at = monotonicMs();
    const joined =
      chunk.length >= this.keep
        ? chunk.subarray(chunk.length - this.keep)
        : Buffer.concat([this.tail, chunk]);
    if (this.tail.length + chunk.length > this.keep) this.dropped = true;
    this.tail = Buffer.from(joined.subarray(Math.max(0, joined.length - this.keep)));
  }

  // The last non-empty line, without its newline and carriage returns (a progress bar's last state).
  lastLine(): string | null {
    const lines = this.tail.toString('utf8').split(/[\r\n]+/);
    let index = lines.length - 1;
    while (index >= 0 && lines[index]!.trim().length === 0) index -= 1;
    if (index < 0) return null;
    const line = lines[index]!.replace(/^\uFFFD+/, '');
    const cut = { start: index === 0 && this.dropped, end: index === lines.length - 1 };
    return this.secrets.length === 0 ? line : maskCut(line, this.secrets, cut);
  }
}
