import fs from 'node:fs';
import type { Bytes } from '../syntax/source.js';
import { shownOutput } from './builtin-secrets.js';
import type { FdRef, OpenFile } from './fds.js';
import type { Runtime } from './runtime.js';
import { ExitSignal } from './signals.js';

// What happened to a write: done, or the descriptor was closed (bash's "write error: Bad file
// descriptor").
type WriteResult = 'ok' | 'closed' | 'full' | 'error';

// Writes what a builtin prints to where its descriptor leads, never blocking the event loop (the
// reader may be a stage safe-run itself is draining). A pipe whose reader is gone kills the writer
// with SIGPIPE, as the kernel kills bash's subshell: the shell (or subshell) ends with 141.
export async function writeTo(rt: Runtime, ref: FdRef, text: Bytes): Promise<WriteResult> {
  if (text === '') return 'ok';
  const bytes = Buffer.from(text, 'latin1');
  switch (ref.kind) {
    case 'run':
      return writeRun(rt, ref.fd, bytes);
    case 'capture':
      ref.sink.append(bytes);
      return 'ok';
    case 'closed':
      return 'closed';
    default:
      return writeFile(ref.file, bytes);
  }
}

// What the pipe takes at once goes in now (all of it, usually); the rest waits its turn in the pool.
function writeFile(file: OpenFile, bytes: Buffer): Promise<WriteResult> {
  const twin = file.nonBlocking();
  let done = 0;
  if (twin !== null) {
    try {
      done = fs.writeSync(twin, bytes);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EPIPE')
        return Promise.reject(new ExitSignal(141, 'signal'));
      // EAGAIN (the pipe is full) or anything else: the usual way, which says what it is.
    }
    if (done === bytes.length) return Promise.resolve('ok');
  }
  return writeFd(file.fd, bytes, done);
}

function writeRun(rt: Runtime, fd: 0 | 1 | 2, bytes: Buffer): Promise<WriteResult> {
  if (fd === 0) return Promise.resolve('closed');
  // Read for ::add-mask:: lines also when nothing is shown (--json).
  const shown = shownOutput(rt, fd, bytes);
  const stream = fd === 2 ? rt.io.stderr : rt.io.stdout;
  if (!stream) return Promise.resolve('ok');
  const data = fd === 2 && rt.io.linePrefix ? prefixLines(shown, rt.io.linePrefix) : shown;
  return new Promise((resolve) => {
    try {
      stream.write(data, () => resolve('ok'));
    } catch {
      resolve('error');
    }
  });
}

function prefixLines(bytes: Buffer, prefix: () => string): Buffer {
  const text = bytes.toString('latin1');
  const lines = text.split('\n');
  const out = lines
    .map((line, i) => (i === lines.length - 1 && line === '' ? '' : `${prefix()}${line}`))
    .join('\n');
  return Buffer.from(out, 'latin1');
}

function writeFd(fd: number, bytes: Buffer, start: number): Promise<WriteResult> {
  return new Promise((resolve, reject) => {
    const from = (offset: number) =>
      fs.write(fd, bytes, offset, bytes.length - offset, null, (error, count) => {
        if (error) {
          if (error.code === 'EPIPE') reject(new ExitSignal(141, 'signal'));
          else resolve(error.code === 'EBADF' ? 'closed' : error.code === 'ENOSPC' ? 'full' : 'error');
        } else if (offset + count < bytes.length) from(offset + count);
        else resolve('ok');
      });
    from(start);
  });
}
