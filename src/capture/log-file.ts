import { closeSync, fchmodSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { formatBytes } from '../inputs/units.js';
import { groupDigits } from './cut-points.js';

export interface StreamLogResult {
  path: string;
  // Bytes of the stream saved in the file (the closing marker line, if any, is not counted).
  bytesWritten: number;
  truncated: boolean;
  // Bytes of the stream that are not in the file.
  omittedBytes: number;
  // Why saving stopped early (disk full, permission denied...), else null.
  error: string | null;
}

export function logLimitMarker(maxBytes: number, omittedBytes: number): string {
  return `\n[... safe-run: log stopped at ${formatBytes(maxBytes)}; ${groupDigits(omittedBytes)} more bytes not saved ...]\n`;
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const message = error instanceof Error ? error.message : String(error);
  return code && !message.startsWith(code) ? `${code}: ${message}` : message;
}

// Saves a whole stream to a file (mode 0600, parent directories made), up to maxBytes; past that
// it keeps counting and, on close, appends one line saying how much was not saved.
//
// Writes are synchronous, one write(2) per chunk, straight from the chunk. Nothing is ever queued,
// so memory cannot grow when the disk is slow: a slow disk slows the event loop, which slows the
// reads from the stage's pipe, which makes the stage wait, the same backpressure a shell
// redirection gives. Failures to open or write are recorded in the result, never thrown: saving
// the log is a service to the user, not a reason to lose the run.
export class StreamLog {
  private fd: number | null = null;
  private written = 0;
  private seen = 0;
  private error: string | null = null;

  constructor(
    readonly path: string,
    readonly maxBytes: number,
  ) {
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      this.fd = openSync(path, 'w', 0o600);
      // The mode above applies only when the file is new; an older file may have looser rights.
      fchmodSync(this.fd, 0o600);
    } catch (error) {
      this.fail(error);
    }
  }

  write(chunk: Buffer): void {
    this.seen += chunk.length;
    if (this.fd === null) return;
    const length = Math.min(chunk.length, this.maxBytes - this.written);
    let offset = 0;
    try {
      while (offset < length) offset += writeSync(this.fd, chunk, offset, length - offset);
    } catch (error) {
      this.fail(error);
    }
    this.written += offset;
  }

  close(): StreamLogResult {
    const omittedBytes = this.seen - this.written;
    if (this.fd !== null) {
      try {
        if (omittedBytes > 0) writeSync(this.fd, logLimitMarker(this.maxBytes, omittedBytes));
        closeSync(this.fd);
      } catch (error) {
        this.error ??= describe(error);
      }
      this.fd = null;
    }
    return {
      path: this.path,
      bytesWritten: this.written,
      truncated: omittedBytes > 0,
      omittedBytes,
      error: this.error,
    };
  }

  private fail(error: unknown): void {
    this.error = describe(error);
    if (this.fd !== null) {
      try {
        closeSync(this.fd);
      } catch {
        // Already failing; the first error is the one worth reporting.
      }
    }
    this.fd = null;
  }
}
