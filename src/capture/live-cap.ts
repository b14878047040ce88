import { formatBytes } from '../format-units.js';
import { EMPTY, LF, snapEnd, snapWindow } from './cut-points.js';

export function liveCapMarker(label: string, capBytes: number): string {
  return `[safe-run: ${label} past ${formatBytes(capBytes)} not shown live; still read to the end, counted and kept in the report]\n`;
}

// Bounds what one stream shows live: bytes pass through until the cap, then one marker line says
// the live view stops there, and nothing more is shown. The cut falls on a line boundary when one
// is near and never inside a UTF-8 character. Reading continues upstream; only the display stops.
export class LiveCap {
  private shown = 0;
  private suppressed = 0;
  private cut = false;
  private lastShown = -1;

  constructor(
    readonly capBytes: number,
    readonly label: string,
  ) {
    if (!Number.isSafeInteger(capBytes) || capBytes < 0) {
      throw new RangeError(`capBytes must be a whole number >= 0, got ${capBytes}`);
    }
  }

  get shownBytes(): number {
    return this.shown;
  }

  get suppressedBytes(): number {
    return this.suppressed;
  }

  push(chunk: Buffer): Buffer {
    if (this.cut) {
      this.suppressed += chunk.length;
      return EMPTY;
    }
    if (this.shown + chunk.length <= this.capBytes) {
      this.shown += chunk.length;
      if (chunk.length > 0) this.lastShown = chunk[chunk.length - 1]!;
      return chunk;
    }
    this.cut = true;
    const allowed = this.capBytes - this.shown;
    let end = snapEnd(chunk, allowed, chunk[allowed]!, snapWindow(this.capBytes));
    // No newline near the cap in this chunk, but what was already shown ended a line: cut there.
    if (end > 0 && chunk[end - 1] !== LF && chunk.lastIndexOf(LF, end - 1) === -1) {
      if (this.lastShown === LF && allowed <= snapWindow(this.capBytes)) end = 0;
    }
    this.shown += end;
    this.suppressed += chunk.length - end;
    if (end > 0) this.lastShown = chunk[end - 1]!;
    const needsNewline = this.shown > 0 && this.lastShown !== LF;
    const marker = `${needsNewline ? '\n' : ''}${liveCapMarker(this.label, this.capBytes)}`;
    return end === 0 ? Buffer.from(marker) : Buffer.concat([chunk.subarray(0, end), Buffer.from(marker)]);
  }

  // The number of bytes not shown live.
  finish(): number {
    return this.suppressed;
  }
}
