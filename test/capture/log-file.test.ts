import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { logGapMarker, logLimitMarker, StreamLog } from '../../src/capture/log-file.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'safe-run-log-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

// Writes like a caller that honours backpressure: pause when write() says so, resume on drained().
async function writeAll(log: StreamLog, chunks: Iterable<Buffer>): Promise<void> {
  for (const chunk of chunks) if (!log.write(chunk)) await log.drained();
}

function* repeat(chunk: Buffer, times: number): Generator<Buffer> {
  for (let i = 0; i < times; i += 1) yield chunk;
}

describe('StreamLog', () => {
  it('saves the whole stream in a file only the user can read, making parent directories', async () => {
    const path = join(dir, 'run', '1-grep.stderr.log');
    const log = new StreamLog(path, 1024 * 1024);
    const data = Buffer.from('line one\nline two\n');
    log.write(data.subarray(0, 5));
    log.write(data.subarray(5));
    expect(await log.close()).toEqual({
      path,
      bytesWritten: data.length,
      truncated: false,
      omittedBytes: 0,
      droppedBytes: 0,
      error: null,
    });
    expect(readFileSync(path).equals(data)).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('saves 64 MiB exactly when the caller pauses on backpressure', async () => {
    const path = join(dir, 'big.log');
    const log = new StreamLog(path, Number.MAX_SAFE_INTEGER, { highWaterMark: 256 * 1024 });
    const chunk = Buffer.alloc(64 * 1024, 'q');
    let peak = 0;
    for (const piece of repeat(chunk, 1024)) {
      if (!log.write(piece)) await log.drained();
      peak = Math.max(peak, log.queuedBytes);
    }
    const result = await log.close();
    expect(result).toMatchObject({ bytesWritten: 64 * 1024 * 1024, truncated: false, droppedBytes: 0 });
    expect(statSync(path).size).toBe(64 * 1024 * 1024);
    expect(peak).toBeLessThanOrEqual(256 * 1024 + 64 * 1024);
  });

  it('stops at maxBytes, keeps counting, and says so at the end of the file', async () => {
    const path = join(dir, 'capped.log');
    const log = new StreamLog(path, 100_000);
    await writeAll(log, repeat(Buffer.alloc(64 * 1024, 'z'), 16));
    const result = await log.close();
    expect(result).toMatchObject({
      bytesWritten: 100_000,
      truncated: true,
      omittedBytes: 1_048_576 - 100_000,
    });
    const saved = readFileSync(path).toString();
    expect(saved).toBe('z'.repeat(100_000) + logLimitMarker(100_000, 948_576));
    expect(saved).toContain('948,576 more bytes not saved');
  });

  it('replaces an older file and tightens its mode', async () => {
    const path = join(dir, 'old.log');
    writeFileSync(path, 'previous run, much longer than this one\n', { mode: 0o644 });
    const log = new StreamLog(path, 1000);
    log.write(Buffer.from('new\n'));
    await log.close();
    expect(readFileSync(path, 'utf8')).toBe('new\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('records a failure to open instead of throwing, and still counts', async () => {
    const log = new StreamLog(dir, 1000);
    log.write(Buffer.from('lost\n'));
    const result = await log.close();
    expect(result.error).toMatch(/EISDIR/);
    expect(result).toMatchObject({ bytesWritten: 0, truncated: true, omittedBytes: 5 });
  });

  it('keeps memory bounded when the disk stops answering, marks the gap, and gives up on close', async () => {
    // A FIFO that is open for reading but never read behaves like a disk that stopped answering.
    const fifo = join(dir, 'stuck.log');
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const log = new StreamLog(fifo, Number.MAX_SAFE_INTEGER, {
        highWaterMark: 256 * 1024,
        maxQueuedBytes: 1024 * 1024,
        closeTimeoutMs: 200,
      });
      const chunk = Buffer.alloc(64 * 1024, 'w');
      let refused = 0;
      for (let i = 0; i < 160; i += 1) {
        if (!log.write(chunk)) refused += 1;
        expect(log.queuedBytes).toBeLessThanOrEqual(1024 * 1024);
      }
      expect(refused).toBeGreaterThan(0);
      const result = await log.close();
      expect(result.error).toMatch(/did not finish the last writes within 200 ms/);
      expect(result.droppedBytes).toBeGreaterThan(0);
      expect(result.omittedBytes).toBe(160 * 64 * 1024 - result.bytesWritten);
      // Unblock the writer: read what reached the pipe and check the gap is announced in order.
      const seen: Buffer[] = [];
      const buf = Buffer.alloc(64 * 1024);
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        let n = 0;
        try {
          n = readSync(reader, buf);
        } catch {
          n = -1;
        }
        if (n > 0) seen.push(Buffer.from(buf.subarray(0, n)));
        if (Buffer.concat(seen).includes(logGapMarker(result.droppedBytes).trim())) break;
        if (n <= 0) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(Buffer.concat(seen).toString()).toContain(logGapMarker(result.droppedBytes).trim());
    } finally {
      closeSync(reader);
    }
  });
});
