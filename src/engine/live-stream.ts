import { type KeptStream, omissionMarker } from '../capture/head-tail.js';
import { LinePrefixer } from '../capture/line-prefixer.js';
import { LiveCap } from '../capture/live-cap.js';
import { formatBytes } from '../format-units.js';
import { ChunkPool } from './chunk-pool.js';
import type { ReadHolds } from './read-holds.js';

export interface LiveOptions {
  cap: number;
  label: string;
  // Stage name prefixed to each live line, or null to stream bytes as they come.
  prefix: string | null;
  // Text put before each live line (a timestamp); when set, the stream goes out as whole lines.
  linePrefix?: (() => string) | null;
  capLive: boolean;
}

// One stream of a stage as shown live on safe-run's own stdout or stderr: prefixed by line, capped
// when asked, and paced by its reader.
export class LiveStream {
  private out: NodeJS.WritableStream | null;
  private readonly prefixer: LinePrefixer | null;
  private readonly liveCap: LiveCap | null;
  private readonly pool = new ChunkPool();
  private lastByte: number | null = null;

  constructor(
    out: NodeJS.WritableStream | null,
    private readonly options: LiveOptions,
    private readonly holds: ReadHolds,
  ) {
    this.out = out;
    const name = options.prefix === null ? '' : `[${options.prefix}] `;
    const stamp = options.linePrefix;
    this.prefixer =
      out && (options.prefix !== null || stamp)
        ? new LinePrefixer(stamp ? () => stamp() + name : name)
        : null;
    this.liveCap = out && options.capLive ? new LiveCap(options.cap, options.label) : null;
  }

  get attached(): boolean {
    return this.out !== null;
  }

  // The reader reuses its buffer, so the bytes are copied: a write to a full pipe completes later.
  write(bytes: Buffer, end: boolean): void {
    const live = this.out;
    if (!live) return;
    let out = this.liveCap ? this.liveCap.push(bytes) : bytes;
    const prefixer = this.prefixer;
    if (prefixer) out = end ? Buffer.concat([prefixer.push(out), prefixer.flush()]) : prefixer.push(out);
    if (out.length > 0) {
      this.lastByte = out[out.length - 1]!;
      const { view, release: giveBack } = this.pool.copy(out);
      // Backpressure: a slow reader of safe-run's output slows the stage, as it would in a shell.
      if (!live.write(view, giveBack) && this.holds.hold('live')) {
        live.once('drain', () => this.holds.release('live'));
      }
    }
  }

  detach(): void {
    this.out = null;
    this.holds.release('live');
  }

  // What safe-run prints next (its table) starts on a line of its own.
  endLine(): void {
    if (this.out && this.lastByte !== null && this.lastByte !== 0x0a) this.out.write('\n');
  }

  // A stream whose live view was capped: show the end of what was kept, that was not shown.
  showTail(kept: KeptStream): void {
    const hidden = this.liveCap?.finish() ?? 0;
    if (!this.out || hidden === 0 || kept.text === null) return;
    const tail = tailOf(kept, hidden);
    if (tail.length === 0) return;
    const note = `[safe-run: the last ${formatBytes(tail.length)} of ${this.options.label}:]\n`;
    const body = this.prefixer ? Buffer.concat([this.prefixer.push(tail), this.prefixer.flush()]) : tail;
    this.out.write(Buffer.concat([Buffer.from(note), body]));
  }
}

// The end of the kept text that was not shown live: at most `hidden` bytes, from a line start.
function tailOf(kept: KeptStream, hidden: number): Buffer {
  const text = kept.text ?? '';
  const marker = omissionMarker(kept.omittedBytes);
  const at = kept.truncated ? text.lastIndexOf(marker) : -1;
  const tail = Buffer.from(at === -1 ? text : text.slice(at + marker.length));
  if (tail.length <= hidden) return tail;
  const from = tail.indexOf(0x0a, tail.length - hidden);
  return from === -1 ? Buffer.alloc(0) : tail.subarray(from + 1);
}
