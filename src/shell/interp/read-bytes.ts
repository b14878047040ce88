import fs from 'node:fs';
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
// ahead and its offset moved by exactly what was taken; anything else one byte at a time.
export async function readRecord(
  fd: number,
  stop: (byte: number, taken: Buffer[]) => boolean,
): Promise<{ bytes: Buffer; eof: boolean }> {
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
