import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { openFifoBounded, type WaitBound } from '../io/open-bounded.js';
import type { Watchdog } from '../teardown/watchdog.js';

export interface AtomicWriteOptions extends WaitBound {
  // Told about the temporary file before it exists, so a SIGKILL of safe-run does not leave it.
  guard: Watchdog | null;
}

// Writes a whole file or nothing: a temporary file beside the target, flushed, then renamed over it.
// An existing file keeps its permission bits (0600 stays 0600); a new one gets 0666 less the umask.
// A FIFO is written in place once a reader comes, within the bound and unless a signal stops the
// wait; another target that is not a regular file (a terminal, /dev/null) is written in place; a
// symbolic link is followed, so the file it names is the one replaced. Rejects with the errno code.
export async function writeFileAtomic(
  target: string,
  content: string,
  options: AtomicWriteOptions,
): Promise<void> {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (stat?.isFIFO()) return writeFifo(target, content, options);
  if (stat && !stat.isFile()) {
    fs.writeFileSync(target, content);
    return;
  }
  const real = stat ? fs.realpathSync(target) : target;
  const dir = path.dirname(path.resolve(real));
  const temp = path.join(dir, `.${path.basename(real)}.${process.pid}.${Date.now()}.tmp`);
  options.guard?.watchFile(temp);
  try {
    const fd = fs.openSync(temp, 'wx', 0o666);
    try {
      if (stat) fs.fchmodSync(fd, stat.mode & 0o7777);
      fs.writeFileSync(fd, content);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, real);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  } finally {
    options.guard?.forgetFile(temp);
  }
}

// The reader may read slowly or not at all: the bytes go through a non-blocking socket on the FIFO,
// so neither the open nor the write can hold safe-run past the bound.
async function writeFifo(target: string, content: string, bound: WaitBound): Promise<void> {
  const opened = await openFifoBounded(target, 'w', bound);
  if ('gaveUp' in opened) throw Object.assign(new Error(opened.gaveUp), { code: opened.gaveUp });
  const socket = new net.Socket({ fd: opened.fd, readable: false, writable: true });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      new Promise<void>((resolve, reject) => {
        socket.on('error', reject);
        socket.end(content, () => resolve());
      }),
      bound.stop.then((why) => Promise.reject(Object.assign(new Error(why), { code: why }))),
      new Promise<void>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              Object.assign(new Error('the reader did not read it all in time'), {
                code: 'the reader did not read it all in time',
              }),
            ),
          bound.waitMs,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
    socket.destroy();
  }
}
