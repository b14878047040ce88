import fs from 'node:fs';
import tty from 'node:tty';
import type { OpenStop } from '../../engine/fifo-open.js';
import { closeQuietly } from '../../engine/kernel-pipes.js';
import { monotonicMs } from '../../monotonic-ms.js';
import type { FdRef } from './fds.js';
import type { Runtime } from './runtime.js';

// Where a builtin reads its input: a descriptor, or nothing (EOF at once).
export type Input = { fd: number } | { fd: null; why: 'closed' | 'empty' };

// The descriptor behind a shell descriptor for reading: safe-run's own stdin (as --stdin says),
// or one the text opened.
export function inputOf(rt: Runtime, ref: FdRef): Input {
  if (ref.kind === 'file') return { fd: ref.file.fd };
  if (ref.kind !== 'run' || ref.fd !== 0) return { fd: null, why: 'closed' };
  const stdin = rt.settings.stdin;
  if (stdin.kind === 'null') return { fd: null, why: 'empty' };
  if (stdin.kind === 'inherit') return { fd: 0 };
  if (rt.stdin.fd === null) rt.stdin.fd = fs.openSync(stdin.path, 'r');
  return { fd: rt.stdin.fd };
}

function readAt(fd: number, length: number, position: number | null): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  return new Promise((resolve, reject) =>
    fs.read(fd, buffer, 0, length, position, (error, count) =>
      error ? reject(error) : resolve(buffer.subarray(0, count)),
    ),
  );
}

// The current offset of a regular file's descriptor (Node has no lseek): /proc shows it.
function offsetOf(fd: number): number | null {
  try {
    const info = fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'latin1');
    const match = /^pos:\s*(\d+)/m.exec(info);
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

// Reads up to and including a byte `stop` says ends the record, never past it, so that whatever
// reads the descriptor next starts right after (as bash's read leaves it): a regular file is read
// ahead and its offset moved by exactly what was taken; anything else one byte at a time. A pipe, a
// FIFO or a terminal is read without waiting on libuv's pool, so that `halt` (the run's time limit,
// a signal) ends a wait for input that does not come (polledRecord): `halted` says it did.
export async function readRecord(
  fd: number,
  stop: (byte: number, taken: Buffer[]) => boolean,
  halt?: Promise<OpenStop>,
): Promise<{ bytes: Buffer; eof: boolean; halted?: OpenStop }> {
  const polled = halt ? pollableCopy(fd) : null;
  if (polled !== null) {
    try {
      return await polledRecord(polled, stop, halt!);
    } finally {
      closeQuietly(polled);
    }
  }
  const taken: Buffer[] = [];
  const regular = fs.fstatSync(fd).isFile();
  const offset = regular ? offsetOf(fd) : null;
  if (offset !== null) {
    let position = offset;
    for (;;) {
      const chunk = await readAt(fd, 4096, position);
      if (chunk.length === 0) break;
      for (let k = 0; k < chunk.length; k++) {
        taken.push(chunk.subarray(k, k + 1));
        if (stop(chunk[k]!, taken)) {
          await readAt(fd, position - offset + k + 1, null).catch(() => null);
          return { bytes: Buffer.concat(taken), eof: false };
        }
      }
      position += chunk.length;
    }
    if (position > offset) await readAt(fd, position - offset, null).catch(() => null);
    return { bytes: Buffer.concat(taken), eof: true };
  }
  for (;;) {
    const byte = await readAt(fd, 1, null);
    if (byte.length === 0) return { bytes: Buffer.concat(taken), eof: true };
    taken.push(byte);
    if (stop(byte[0]!, taken)) return { bytes: Buffer.concat(taken), eof: false };
  }
}

// A second, non-blocking open of what `fd` reads when it is a pipe, a FIFO or a terminal (through
// /proc/self/fd/N: the same pipe or device, an open file description of its own, so `fd` itself is
// left as it was), or null (a socket, any other file, or a descriptor open for writing only, whose
// reopen for reading would read back what the text wrote into the pipe: read as before).
function pollableCopy(fd: number): number | null {
  const stat = fs.fstatSync(fd);
  if ((!stat.isFIFO() && !tty.isatty(fd)) || writeOnly(fd)) return null;
  try {
    return fs.openSync(`/proc/self/fd/${fd}`, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch {
    return null;
  }
}

function writeOnly(fd: number): boolean {
  try {
    const flags = /^flags:\s*([0-7]+)/m.exec(fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'latin1'));
    return flags !== null && (Number.parseInt(flags[1]!, 8) & 3) === fs.constants.O_WRONLY;
  } catch {
    return true;
  }
}

const MAX_WAIT_MS = 50;
// How long reading may hold the event loop (timers, signals, the MCP server's other calls) while input
// keeps coming: it turns at least this often, across records (`mapfile < <(yes)` is one record after
// another, each short).
const TURN_MS = 20;
let lastTurn = 0;
let sinceLook = 0;

// One byte at a time from a non-blocking descriptor: with none there yet, a wait (1 ms, doubling up
// to 50 ms); `halt` ends a wait, and input that keeps coming, at the next turn of the event loop.
async function polledRecord(
  fd: number,
  stop: (byte: number, taken: Buffer[]) => boolean,
  halt: Promise<OpenStop>,
): Promise<{ bytes: Buffer; eof: boolean; halted?: OpenStop }> {
  let halted: OpenStop | null = null;
  void halt.then((value) => {
    halted = value;
  });
  const taken = new ByteList();
  const one = Buffer.alloc(1);
  let wait = 1;
  for (;;) {
    if (++sinceLook % 256 === 0 && monotonicMs() - lastTurn >= TURN_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      lastTurn = monotonicMs();
    }
    if (halted) return { bytes: taken.bytes(), eof: false, halted };
    let count: number;
    try {
      count = fs.readSync(fd, one, 0, 1, null);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      await Promise.race([halt, new Promise((resolve) => setTimeout(resolve, wait))]);
      lastTurn = monotonicMs();
      wait = Math.min(wait * 2, MAX_WAIT_MS);
      continue;
    }
    if (count === 0) return { bytes: taken.bytes(), eof: true };
    wait = 1;
    taken.push(one[0]!);
    if (stop(one[0]!, NO_TAKEN)) return { bytes: taken.bytes(), eof: false };
  }
}

// (No predicate looks at what was taken before its byte.)
const NO_TAKEN: Buffer[] = [];

// Bytes as they come, in one buffer that doubles (a Buffer per byte cost ~160 bytes of memory each).
class ByteList {
  private buffer = Buffer.allocUnsafe(256);
  private length = 0;

  push(byte: number): void {
    if (this.length === this.buffer.length) {
      const bigger = Buffer.allocUnsafe(this.buffer.length * 2);
      this.buffer.copy(bigger, 0, 0, this.length);
      this.buffer = bigger;
    }
    this.buffer[this.length++] = byte;
  }

  bytes(): Buffer {
    return Buffer.from(this.buffer.subarray(0, this.length));
  }
}
