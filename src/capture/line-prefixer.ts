import { charBoundaryBefore, EMPTY, LF } from './cut-points.js';
import { isWorkflowCommand } from './workflow-commands.js';

// Added after the last line of a stream that did not end with a newline.
export const NO_NEWLINE_MARK = ' [safe-run: no newline at end]';

const NEWLINE = Buffer.from('\n');

// Turns one stage's live stderr into whole lines, each starting with the stage's prefix
// ("[grep] "), so that several stages writing at once never mix within a line. A partial line is
// held until its newline (or the end); a line longer than maxLine bytes is passed on in pieces of
// at most maxLine bytes, each prefixed and ended with a newline, so memory stays bounded.
// With `passCommands`, a line the GitHub runner reads as a command (workflow-commands.ts) goes out
// as written, without the prefix. showPartial() shows a held line before its end (a prompt), and
// the rest of that line then follows without a second prefix.
export class LinePrefixer {
  // The held line's start has been shown (showPartial): what follows continues it.
  private open = false;
  private readonly passCommands: boolean;
  private prefix: Buffer;
  private prefixLatin1: string;
  // A prefix that changes (a timestamp): computed again for each chunk, so lines that arrived
  // together share one.
  private readonly makePrefix: (() => string) | null;
  private readonly partial: Buffer;
  private partialLength = 0;

  constructor(
    prefix: string | (() => string),
    readonly maxLine: number = 16 * 1024,
    options: { passCommands?: boolean } = {},
  ) {
    this.passCommands = options.passCommands === true;
    if (!Number.isSafeInteger(maxLine) || maxLine < 4) {
      throw new RangeError(`maxLine must be a whole number >= 4, got ${maxLine}`);
    }
    this.makePrefix = typeof prefix === 'function' ? prefix : null;
    this.prefix = Buffer.from(typeof prefix === 'function' ? prefix() : prefix);
    this.prefixLatin1 = this.prefix.toString('latin1');
    this.partial = Buffer.allocUnsafe(maxLine);
  }

  get heldBytes(): number {
    return this.partialLength;
  }

  private refreshPrefix(): void {
    if (!this.makePrefix) return;
    this.prefix = Buffer.from(this.makePrefix());
    this.prefixLatin1 = this.prefix.toString('latin1');
  }

  push(chunk: Buffer): Buffer {
    this.refreshPrefix();
    const parts: Buffer[] = [];
    const last = chunk.lastIndexOf(LF);
    let start = 0;
    if (last !== -1 && (this.partialLength > 0 || this.open)) {
      const newline = chunk.indexOf(LF);
      this.append(parts, chunk, 0, newline);
      this.emitPartial(parts, NEWLINE);
      start = newline + 1;
    }
    if (start <= last) parts.push(this.wholeLines(chunk, start, last + 1));
    if (last + 1 < chunk.length) this.append(parts, chunk, last + 1, chunk.length);
    return parts.length === 0 ? EMPTY : parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }

  // The stream ended: pass on its last line even without a newline, and say so.
  flush(): Buffer {
    if (this.partialLength === 0 && !this.open) return EMPTY;
    this.refreshPrefix();
    const parts: Buffer[] = [];
    this.emitPartial(parts, Buffer.from(`${NO_NEWLINE_MARK}\n`));
    return Buffer.concat(parts);
  }

  // The held start of a line, to be shown now (a prompt waits for its answer before its newline).
  showPartial(): Buffer {
    if (this.partialLength === 0) return EMPTY;
    this.refreshPrefix();
    const parts: Buffer[] = [];
    this.emitPartial(parts, EMPTY);
    this.open = true;
    return Buffer.concat(parts);
  }

  // Something else was written after the shown start of a line and ended it: the rest of the line
  // is prefixed again.
  broken(): void {
    this.open = false;
  }

  // The prefix of a line starting with `start` (latin1): none for a command the runner reads.
  private prefixOf(start: string): Buffer {
    return this.passCommands && isWorkflowCommand(start) ? EMPTY : this.prefix;
  }

  // Prefixes the lines of chunk[from, to), which ends with a newline. Read as latin1 (one
  // character per byte) the lines are split and joined in one native pass each; lines too long
  // for one piece take the byte-by-byte way.
  private wholeLines(chunk: Buffer, from: number, to: number): Buffer {
    const lines = chunk.toString('latin1', from, to - 1).split('\n');
    if (lines.every((line) => line.length <= this.maxLine)) {
      if (this.passCommands) {
        const shown = lines.map((line) => (isWorkflowCommand(line) ? line : this.prefixLatin1 + line));
        return Buffer.from(`${shown.join('\n')}\n`, 'latin1');
      }
      return Buffer.from(`${this.prefixLatin1}${lines.join(`\n${this.prefixLatin1}`)}\n`, 'latin1');
    }
    const parts: Buffer[] = [];
    let start = from;
    while (start < to) {
      const newline = chunk.indexOf(LF, start);
      this.append(parts, chunk, start, newline);
      this.emitPartial(parts, NEWLINE);
      start = newline + 1;
    }
    return Buffer.concat(parts);
  }

  // Adds chunk[from, to) (no newline in it) to the held line, passing on full pieces.
  private append(parts: Buffer[], chunk: Buffer, from: number, to: number): void {
    while (to - from > this.maxLine - this.partialLength) {
      const fill = this.maxLine - this.partialLength;
      chunk.copy(this.partial, this.partialLength, from, from + fill);
      from += fill;
      this.partialLength = this.maxLine;
      let cut = charBoundaryBefore(this.partial, this.maxLine);
      if (cut === 0) cut = this.maxLine;
      const piece = Buffer.from(this.partial.subarray(0, cut));
      if (!this.open) parts.push(this.prefixOf(piece.toString('latin1')));
      this.open = false;
      parts.push(piece, NEWLINE);
      this.partial.copy(this.partial, 0, cut, this.maxLine);
      this.partialLength = this.maxLine - cut;
    }
    chunk.copy(this.partial, this.partialLength, from, to);
    this.partialLength += to - from;
  }

  private emitPartial(parts: Buffer[], ending: Buffer): void {
    const held = Buffer.from(this.partial.subarray(0, this.partialLength));
    if (!this.open) parts.push(this.prefixOf(held.toString('latin1')));
    parts.push(held, ending);
    this.partialLength = 0;
    this.open = false;
  }
}
