import { close, existsSync, fchmodSync, mkdirSync, openSync, writev } from 'node:fs';
import { dirname } from 'node:path';
import { formatBytes } from '../format-units.js';
import { groupDigits } from './cut-points.js';

export interface StreamLogResult {
  path: string;
  // Bytes of the stream that are in the file (marker lines are not counted).
  bytesWritten: number;
  truncated: boolean;
  // Bytes of the stream that are not in the file: past maxBytes, dropped, or after an error.
  omittedBytes: number;
  // Of those, bytes dropped because the disk did not keep up (each gap is marked in the file).
  droppedBytes: number;
  // Why saving stopped early (disk full, permission denied, disk not answering...), else null.
  error: string | null;
}

interface StreamLogOptions {
  // Queued bytes from which write() returns false: pause the source until drained().
  highWaterMark?: number;
  // Queued bytes past which chunks are dropped instead of queued, so memory stays bounded even
  // when the source is not paused.
  maxQueuedBytes?: number;
  // How long close() waits for the last writes before it gives up and reports the disk.
  closeTimeoutMs?: number;
  // Never replace a file that exists: a name another run's log took is a failure to report.
  exclusive?: boolean;
}

export function logLimitMarker(maxBytes: number, omittedBytes: number): string {
  return `\n[... safe-run: log stopped at ${formatBytes(maxBytes)}; ${groupDigits(omittedBytes)} more bytes not saved ...]\n`;
}

export function logGapMarker(droppedBytes: number): string {
  return `\n[... safe-run: ${groupDigits(droppedBytes)} bytes not saved here: the disk did not keep up ...]\n`;
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const message = error instanceof Error ? error.message : String(error);
  return code && !message.startsWith(code) ? `${code}: ${message}` : message;
}

interface Pending {
  data: Buffer;
  // False for marker lines, which are not bytes of the stream.
  ofStream: boolean;
}

// Saves a whole stream to a file (mode 0600, parent directories made), up to maxBytes; past that
// it keeps counting and, on close, appends one line saying how much was not saved.
//
// Writes are asynchronous (writev on libuv's thread pool, one at a time, batching what queued up
// meanwhile), so a slow or stuck disk never blocks the event loop: the other streams are still
// drained and timeouts still fire. Memory is bounded twice: write() returns false past
// highWaterMark, for the caller to pause the source (the stage then waits, as it would on a shell
// redirection to the same disk); and past maxQueuedBytes chunks are dropped, counted, and the gap
// marked in the file. Failures are recorded in the result, never thrown.
export class StreamLog {
  private fd: number | null = null;
  private readonly highWaterMark: number;
  private readonly maxQueuedBytes: number;
  private readonly closeTimeoutMs: number;
  private queue: Pending[] = [];
  private queued = 0;
  private writing = false;
  private seen = 0;
  // Stream bytes within maxBytes, whether queued, written or dropped.
  private accepted = 0;
  private written = 0;
  private dropped = 0;
  private unmarkedGap = 0;
  private error: string | null = null;
  private closed = false;
  private drainWaiters: (() => void)[] = [];
  private idleWaiter: (() => void) | null = null;
  private result: Promise<StreamLogResult> | null = null;

  constructor(
    readonly path: string,
    readonly maxBytes: number,
    options: StreamLogOptions = {},
  ) {
    this.highWaterMark = options.highWaterMark ?? 1024 * 1024;
    this.maxQueuedBytes = options.maxQueuedBytes ?? 16 * 1024 * 1024;
    this.closeTimeoutMs = options.closeTimeoutMs ?? 10_000;
    try {
      makeDirectories(dirname(path));
      this.fd = openSync(path, options.exclusive ? 'wx' : 'w', 0o600);
      // The mode above applies only when the file is new; an older file may have looser rights.
      fchmodSync(this.fd, 0o600);
    } catch (error) {
      this.fail(error);
    }
  }

  get queuedBytes(): number {
    return this.queued;
  }

  // False when the caller should pause the source until drained() resolves.
  write(chunk: Buffer): boolean {
    this.seen += chunk.length;
    if (this.closed) return true;
    const part = chunk.subarray(0, Math.max(0, Math.min(chunk.length, this.maxBytes - this.accepted)));
    this.accepted += part.length;
    if (this.fd === null || part.length === 0) return true;
    if (this.queued + part.length > this.maxQueuedBytes) {
      this.dropped += part.length;
      this.unmarkedGap += part.length;
      return false;
    }
    this.markGap();
    this.enqueue(part, true);
    return this.queued < this.highWaterMark;
  }

  // Resolves once the queue is below highWaterMark (at once if it is).
  drained(): Promise<void> {
    if (this.queued < this.highWaterMark) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  // Writes what is queued and the closing marker, closes the file and says what it holds. Waits
  // at most closeTimeoutMs for a disk that stopped answering.
  close(): Promise<StreamLogResult> {
    if (this.result) return this.result;
    this.closed = true;
    this.markGap();
    const pastLimit = this.seen - this.accepted;
    if (this.fd !== null && pastLimit > 0)
      this.enqueue(Buffer.from(logLimitMarker(this.maxBytes, pastLimit)), false);
    this.result = new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.error ??= `the disk did not finish the last writes within ${this.closeTimeoutMs} ms`;
        resolve(this.summary());
      }, this.closeTimeoutMs);
      this.idleWaiter = () => {
        clearTimeout(timer);
        if (this.fd !== null) close(this.fd, () => {});
        this.fd = null;
        resolve(this.summary());
      };
      this.checkIdle();
    });
    return this.result;
  }

  private summary(): StreamLogResult {
    const omittedBytes = this.seen - this.written;
    return {
      path: this.path,
      bytesWritten: this.written,
      truncated: omittedBytes > 0,
      omittedBytes,
      droppedBytes: this.dropped,
      error: this.error,
    };
  }

  private markGap(): void {
    if (this.unmarkedGap === 0 || this.fd === null) return;
    this.enqueue(Buffer.from(logGapMarker(this.unmarkedGap)), false);
    this.unmarkedGap = 0;
  }

  private enqueue(data: Buffer, ofStream: boolean): void {
    this.queue.push({ data, ofStream });
    this.queued += data.length;
    this.pump();
  }

  private pump(): void {
    if (this.writing || this.fd === null || this.queue.length === 0) return;
    // Everything queued goes in one writev (IOV_MAX is at least 1024 on Linux and macOS).
    const batch = this.queue.splice(0, 1024);
    this.writing = true;
    writev(
      this.fd,
      batch.map((pending) => pending.data),
      (error, bytes) => {
        this.writing = false;
        if (error) this.fail(error);
        else this.account(batch, bytes);
        if (this.queued < this.highWaterMark) this.wakeDrainWaiters();
        this.pump();
        this.checkIdle();
      },
    );
  }

  // Counts what a writev wrote and puts back, in order, what it did not.
  private account(batch: Pending[], bytes: number): void {
    let left = bytes;
    for (let i = 0; i < batch.length; i += 1) {
      const pending = batch[i]!;
      const done = Math.min(left, pending.data.length);
      left -= done;
      this.queued -= done;
      if (pending.ofStream) this.written += done;
      if (done < pending.data.length) {
        this.queue.unshift(
          { data: pending.data.subarray(done), ofStream: pending.ofStream },
          ...batch.slice(i + 1),
        );
        return;
      }
    }
  }

  private checkIdle(): void {
    const waiter = this.idleWaiter;
    if (waiter === null || this.writing || (this.queue.length > 0 && this.fd !== null)) return;
    this.idleWaiter = null;
    waiter();
  }

  private wakeDrainWaiters(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const wake of waiters) wake();
  }

  private fail(error: unknown): void {
    this.error ??= describe(error);
    if (this.fd !== null) close(this.fd, () => {});
    this.fd = null;
    this.queue = [];
    this.queued = 0;
  }
}

// Creates the missing directories one level at a time (mode 0700). Node's recursive mkdir loops
// forever on a path under /proc, where mkdir says ENOENT for a parent that exists.
function makeDirectories(dir: string): void {
  const missing: string[] = [];
  for (let current = dir; !existsSync(current); current = dirname(current)) {
    if (dirname(current) === current) break;
    missing.unshift(current);
  }
  for (const each of missing) mkdirSync(each, { mode: 0o700 });
}
