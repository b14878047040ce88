import { Writable } from 'node:stream';
import { StreamLog, type StreamLogResult } from '../capture/log-file.js';
import { StreamMasker } from '../capture/mask.js';
import type { RunIO } from '../engine/run-io.js';
import { monotonicMs } from '../monotonic-ms.js';
import { OutputWindow, type WindowText } from './output-window.js';

interface TranscriptOptions {
  // Bytes of output a result shows, head and tail.
  budget: number;
  // Values masked in the product stream (stderr comes masked from the engine).
  secrets: readonly string[];
  // Where the whole output goes once it outgrows the budget; called at most once.
  spillPath: () => string;
  // The most the file keeps.
  maxFileBytes: number;
}

// Where the whole output of a call is, when it outgrew what a result shows.
export interface TranscriptFile {
  path: string;
  // False when the file stopped at maxFileBytes or the disk failed: then it holds only the start.
  complete: boolean;
  bytesWritten: number;
}

// The output of one call as it was printed: every step's stdout (the last stage of each pipeline) and
// every stage's stderr (prefixed "[name] " when its pipeline has several stages), in the order safe-run
// read them, masked. A result shows the head and tail within the budget; once the output outgrows the
// budget the whole of it goes to a file as well, so that what a result cuts can still be read (by the
// run tool itself: sed, grep). A job's output is also read in parts: `takeUnread` gives what came
// since the last read.
export class Transcript {
  readonly io: RunIO;
  private readonly whole: OutputWindow;
  private unread: OutputWindow;
  private readonly masker: StreamMasker | null;
  // Everything, while it fits in the budget: the start of the file if it comes to one.
  private early: Buffer[] | null = [];
  private log: StreamLog | null = null;
  private lastOutputAt = monotonicMs();
  private file: Promise<StreamLogResult | null> | null = null;

  constructor(private readonly options: TranscriptOptions) {
    this.whole = new OutputWindow(options.budget);
    this.unread = new OutputWindow(options.budget);
    this.masker = options.secrets.length > 0 ? new StreamMasker(options.secrets) : null;
    const sink = (masked: boolean) =>
      new Writable({
        write: (chunk: Buffer, _encoding, done) => {
          this.push(masked || !this.masker ? chunk : this.masker.push(chunk));
          done();
        },
      });
    this.io = { stdout: sink(false), stderr: sink(true), wholeStderr: true };
  }

  get bytes(): number {
    return this.whole.bytes;
  }

  // How long nothing was printed.
  quietMs(): number {
    return monotonicMs() - this.lastOutputAt;
  }

  lastLines(count: number): string {
    return this.whole.lastLines(count);
  }

  private push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    const copy = Buffer.from(chunk);
    this.lastOutputAt = monotonicMs();
    this.whole.push(copy);
    this.unread.push(copy);
    if (this.log) {
      this.log.write(copy);
      return;
    }
    this.early!.push(copy);
    if (this.whole.bytes > this.options.budget) this.spill();
  }

  private spill(): void {
    this.log = new StreamLog(this.options.spillPath(), this.options.maxFileBytes, { exclusive: true });
    for (const chunk of this.early!) this.log.write(chunk);
    this.early = null;
  }

  // What came since the last call (at most the budget, head and tail), and a new window after it.
  // Data is not shown, so it goes to the file at once, however small, for the reader to find.
  takeUnread(): WindowText {
    const read = this.unread.read();
    if (read.binary && !this.log) this.spill();
    this.unread = new OutputWindow(this.options.budget, this.whole.bytes, this.whole.lineCount + 1);
    return read;
  }

  // Where the whole output is so far (a running job's file is still growing), or null when it fit.
  spilled(): TranscriptFile | null {
    return this.log ? { path: this.log.path, complete: true, bytesWritten: this.whole.bytes } : null;
  }

  // The call ended: the held bytes of the masker go out, and the file is closed. Idempotent.
  // Output that is data goes to the file however small, since the result shows none of it.
  finish(): Promise<{ text: WindowText; file: TranscriptFile | null }> {
    if (!this.file) {
      const rest = this.masker?.flush();
      if (rest && rest.length > 0) this.push(rest);
      if (!this.log && this.whole.bytes > 0 && this.whole.read().binary) this.spill();
      this.file = this.log ? this.log.close() : Promise.resolve(null);
    }
    return this.file.then((result) => ({
      text: this.whole.read(),
      file: result && {
        path: result.path,
        complete: !result.truncated && result.error === null,
        bytesWritten: result.bytesWritten,
      },
    }));
  }
}
