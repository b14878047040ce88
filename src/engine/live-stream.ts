import { type KeptStream, omissionMarker } from '../capture/head-tail.js';
import { LinePrefixer } from '../capture/line-prefixer.js';
import { LiveCap } from '../capture/live-cap.js';
import { formatBytes } from '../format-units.js';
import { monotonicMs } from '../monotonic-ms.js';
import { ChunkPool } from './chunk-pool.js';
import type { ReadHolds } from './read-holds.js';
import type { LineWriter, SharedLine } from './shared-line.js';

// How live stderr lines are shown, beyond their prefix (RunIO.lines).
export interface LineStyle {
  // 'prefix': "[name] " before each line; 'header': a "[name]" line when the writing stage changes,
  // and each line as the stage wrote it (what a CI problem matcher reads keeps its start).
  labels: 'prefix' | 'header';
  // A line the GitHub runner reads as a command goes out as written, without prefix or timestamp.
  passCommands: boolean;
  // A line held for its newline is shown this long after its first byte (a prompt); null: never.
  showPartialMs: number | null;
}

interface LiveOptions {
  cap: number;
  label: string;
  // Stage name shown with each live line, or null to stream bytes as they come.
  prefix: string | null;
  // Text put before each live line (a timestamp); when set, the stream goes out as whole lines.
  linePrefix?: (() => string) | null;
  capLive: boolean;
  style?: LineStyle | null;
  // The destination shared with the other stages' streams.
  shared?: SharedLine | null;
}

// One stream of a stage as shown live on safe-run's own stdout or stderr: prefixed by line, capped
// when asked, and paced by its reader.
export class LiveStream implements LineWriter {
  private out: NodeJS.WritableStream | null;
  private readonly prefixer: LinePrefixer | null;
  private readonly liveCap: LiveCap | null;
  private readonly pool = new ChunkPool();
  private lastByte: number | null = null;
  private readonly header: (() => string) | null;
  private partialTimer: NodeJS.Timeout | null = null;
  private lastWrite = 0;

  constructor(
    out: NodeJS.WritableStream | null,
    private readonly options: LiveOptions,
    private readonly holds: ReadHolds,
  ) {
    this.out = out;
    const { prefix, style } = options;
    const byHeader = prefix !== null && style?.labels === 'header';
    const name = prefix === null || byHeader ? '' : `[${prefix}] `;
    const stamp = options.linePrefix;
    this.header = byHeader ? () => `${stamp?.() ?? ''}[${prefix}]\n` : null;
    this.prefixer =
      out && (prefix !== null || stamp)
        ? new LinePrefixer(stamp ? () => stamp() + name : name, undefined, {
            passCommands: style?.passCommands === true,
          })
        : null;
    this.liveCap = out && options.capLive ? new LiveCap(options.cap, options.label) : null;
  }

  broken(): void {
    this.prefixer?.broken();
    this.lastByte = 0x0a;
  }

  get attached(): boolean {
    return this.out !== null;
  }

  // The reader reuses its buffer, so the bytes are copied: a write to a full pipe completes later.
  write(bytes: Buffer, end: boolean): void {
    if (!this.out) return;
    let out = this.liveCap ? this.liveCap.push(bytes) : bytes;
    const prefixer = this.prefixer;
    if (prefixer) out = end ? Buffer.concat([prefixer.push(out), prefixer.flush()]) : prefixer.push(out);
    this.emit(out);
    this.lastWrite = monotonicMs();
    if (end) this.stopTimer();
    else this.armPartial();
  }

  private emit(bytes: Buffer): void {
    const live = this.out;
    if (!live || bytes.length === 0) return;
    const shared = this.prefixer ? this.options.shared : null;
    const before = shared?.before(this, this.header?.() ?? null) ?? '';
    const out = before ? Buffer.concat([Buffer.from(before), bytes]) : bytes;
    this.lastByte = out[out.length - 1]!;
    shared?.after(this, this.lastByte === 0x0a);
    const { view, release: giveBack } = this.pool.copy(out);
    // Backpressure: a slow reader of safe-run's output slows the stage, as it would in a shell.
    if (!live.write(view, giveBack) && this.holds.hold('live')) {
      live.once('drain', () => this.holds.release('live'));
    }
  }

  // A line held for its newline is shown once the stream has been quiet for showPartialMs: a prompt
  // ("Password: ") is seen while it waits for its answer, not after the stage ended. The check runs
  // after the I/O phase (setImmediate): a timer that expired while safe-run itself was not scheduled
  // must not show half a line whose rest is already waiting to be read.
  private armPartial(delay?: number): void {
    const ms = this.options.style?.showPartialMs ?? null;
    if (ms === null || this.partialTimer || !this.prefixer || this.prefixer.heldBytes === 0) return;
    this.partialTimer = setTimeout(() => {
      setImmediate(() => {
        this.partialTimer = null;
        const quiet = monotonicMs() - this.lastWrite;
        if (!this.prefixer || this.prefixer.heldBytes === 0) return;
        if (quiet < ms) return this.armPartial(ms - quiet);
        this.emit(this.prefixer.showPartial());
      });
    }, delay ?? ms);
    this.partialTimer.unref();
  }

  private stopTimer(): void {
    if (this.partialTimer) clearTimeout(this.partialTimer);
    this.partialTimer = null;
  }

  detach(): void {
    this.stopTimer();
    this.out = null;
    this.holds.release('live');
  }

  // What safe-run prints next (its table) starts on a line of its own.
  endLine(): void {
    if (this.out && this.lastByte !== null && this.lastByte !== 0x0a) {
      this.out.write('\n');
      this.lastByte = 0x0a;
      if (this.prefixer) this.options.shared?.after(this, true);
    }
  }

  // A stream whose live view was capped: show the end of what was kept, that was not shown.
  showTail(kept: KeptStream): void {
    const hidden = this.liveCap?.finish() ?? 0;
    if (!this.out || hidden === 0 || kept.text === null) return;
    const tail = tailOf(kept, hidden);
    if (tail.length === 0) return;
    const note = `[safe-run: the last ${formatBytes(tail.length)} of ${this.options.label}:]\n`;
    const body = this.prefixer ? Buffer.concat([this.prefixer.push(tail), this.prefixer.flush()]) : tail;
    this.emit(Buffer.concat([Buffer.from(note), body]));
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
