import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import tty from 'node:tty';
import { RequestError, StoppedError } from '../errors.js';
import { formatBytes, formatDuration } from '../format-units.js';
import type { SpecInput } from '../inputs/assemble-plan.js';
import { statOrNone } from '../inputs/check-paths.js';
import { MAX_TEXT_BYTES, specText } from '../inputs/limits.js';
import { openFifoBounded, stopOnSignals } from '../io/open-bounded.js';
import { signalNumber } from '../policy/signals.js';
import { parseDuration } from '../settings/read-units.js';
import type { CliOptions } from './options.js';

// A spec is text a person wrote: far below this. /dev/zero or a runaway generator is refused here.
const MAX_SPEC_BYTES = MAX_TEXT_BYTES;

// `-f FILE` when FILE (or stdin, for `-f -`) may be a FIFO, a pipe, a terminal or a device: the
// spec is read without blocking the event loop, at most MAX_SPEC_BYTES, within --timeout (or the
// documented wait bound), and a signal ends the wait with one line instead of a silent death.
export async function loadSpecBounded(options: CliOptions, defaultWaitMs: number): Promise<SpecInput> {
  const file = options.file!;
  const timeout = options.settings['--timeout'];
  const waitMs = waitBound(typeof timeout === 'string' ? timeout : undefined, defaultWaitMs);
  const watch = stopOnSignals(['SIGINT', 'SIGTERM', 'SIGHUP']);
  try {
    const text = await readBounded(file, waitMs, watch.stop);
    const { loadSpec } = await import('../spec-file/load-spec.js');
    const stageDir = options.cwd === undefined ? undefined : path.resolve(options.cwd);
    return text === null
      ? loadSpec(file, undefined, { stageDir })
      : loadSpec(file, () => text, { stageDir, text });
  } catch (error) {
    const signal = watch.signal();
    if (signal) {
      throw new StoppedError(
        `stopped by ${signal} while reading the spec ${file === '-' ? 'from stdin' : file}; nothing was started`,
        128 + signalNumber(signal),
      );
    }
    throw error;
  } finally {
    watch.dispose();
  }
}

function waitBound(timeout: string | undefined, fallback: number): number {
  if (timeout === undefined) return fallback;
  try {
    return parseDuration(timeout, '--timeout');
  } catch {
    return fallback;
  }
}

// Null: a regular file of acceptable size, read the ordinary way.
async function readBounded(file: string, waitMs: number, stop: Promise<string>): Promise<string | null> {
  const label = file === '-' ? 'stdin' : file;
  let fd: number;
  if (file === '-') fd = 0;
  else {
    const stat = statOrNone(file);
    if (!stat || stat.isDirectory()) return null;
    if (stat.isFile()) {
      if (stat.size > MAX_SPEC_BYTES) throw tooLarge(label);
      return null;
    }
    if (stat.isFIFO()) {
      const opened = await openFifoBounded(file, 'r', { waitMs, stop });
      if ('gaveUp' in opened) {
        await Promise.race([stop, Promise.resolve()]);
        throw new RequestError('spec.unreadable', `${label}: ${opened.gaveUp}; nothing was started`);
      }
      fd = opened.fd;
    } else {
      fd = fs.openSync(file, 'r');
    }
  }
  return readStream(fd, label, waitMs, stop);
}

function readStream(fd: number, label: string, waitMs: number, stop: Promise<string>): Promise<string> {
  const stat = fs.fstatSync(fd);
  const stream: NodeJS.ReadableStream & { destroy(): void } =
    stat.isFIFO() || stat.isSocket()
      ? new net.Socket({ fd, readable: true, writable: false })
      : tty.isatty(fd)
        ? new tty.ReadStream(fd)
        : fs.createReadStream('', { fd, autoClose: fd !== 0, highWaterMark: 64 * 1024 });
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const finish = (error: Error | null, text?: string) => {
      clearTimeout(timer);
      if (fd !== 0) stream.destroy();
      else stream.pause();
      if (error) reject(error);
      else resolve(text!);
    };
    const timer = setTimeout(
      () =>
        finish(
          new RequestError(
            'spec.unreadable',
            `${label}: the spec did not arrive whole within ${formatDuration(waitMs)}; nothing was started`,
          ),
        ),
      waitMs,
    );
    void stop.then((why) => finish(new Error(why)));
    stream.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > MAX_SPEC_BYTES) finish(tooLarge(label));
      else chunks.push(chunk);
    });
    stream.on('end', () => {
      try {
        finish(null, specText(Buffer.concat(chunks), fd === 0 ? '<stdin>' : label));
      } catch (error) {
        finish(error as Error);
      }
    });
    stream.on('error', (error: NodeJS.ErrnoException) =>
      finish(
        new RequestError('spec.unreadable', `${label}: cannot be read (${error.code ?? error.message})`),
      ),
    );
  });
}

function tooLarge(label: string): RequestError {
  return new RequestError(
    'spec.too-large',
    `${label}: more than ${formatBytes(MAX_SPEC_BYTES)}; a spec file is at most ${formatBytes(MAX_SPEC_BYTES)}`,
  );
}
