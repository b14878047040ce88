import type { StreamLog, StreamLogResult } from '../capture/log-file.js';
import type { ReadHolds } from './read-holds.js';

// The whole-stream log of one stream (--log-dir): written masked, paced by its disk.
export class LogSink {
  private saved: StreamLogResult | null = null;
  private closing: Promise<void> = Promise.resolve();

  constructor(
    private readonly log: StreamLog,
    private readonly holds: ReadHolds,
  ) {}

  // The log queues what it is given, so it gets a copy: the reader reuses its buffer.
  write(masked: Buffer): void {
    if (masked.length > 0 && !this.log.write(Buffer.from(masked)) && this.holds.hold('log')) {
      void this.log.drained().then(() => this.holds.release('log'));
    }
  }

  close(): void {
    this.closing = this.log.close().then((result) => {
      this.saved = result;
    });
  }

  settled(): Promise<void> {
    return this.closing;
  }

  // Where the log is once closed; a problem writing it is told first.
  file(onProblem?: (problem: string) => void): string | null {
    const saved = this.saved;
    if (saved?.error) onProblem?.(`${saved.path}: ${saved.error}`);
    // A log that could not even be created is not a place to look.
    return saved && !(saved.error && saved.bytesWritten === 0) ? saved.path : null;
  }
}
