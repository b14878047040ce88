// Keeps the end of a stream (at most `keep` bytes) so a progress display can show the last line a
// stage printed without holding the stream. Copies: the reader reuses its buffer.
export class RecentLine {
  private tail: Buffer = Buffer.alloc(0);
  // performance.now() of the last byte, or null before any.
  at: number | null = null;

  constructor(private readonly keep = 512) {}

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.at = performance.now();
    const joined =
      chunk.length >= this.keep
        ? chunk.subarray(chunk.length - this.keep)
        : Buffer.concat([this.tail, chunk]);
    this.tail = Buffer.from(joined.subarray(Math.max(0, joined.length - this.keep)));
  }

  // The last non-empty line, without its newline and carriage returns (a progress bar's last state).
  lastLine(): string | null {
    const lines = this.tail.toString('utf8').split(/[\r\n]+/);
    const last = lines.filter((line) => line.trim().length > 0).pop();
    return last === undefined ? null : last.replace(/^\uFFFD+/, '');
  }
}
