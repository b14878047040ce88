import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// A real kernel pipe as two blocking file descriptors. Node has no pipe(2), and its stdio 'pipe' is a
// socketpair, which changes what programs see (a writer to a closed reader gets ECONNRESET instead of
// SIGPIPE). A FIFO opened from both sides and unlinked at once is an ordinary pipe: see docs/linking.md.
export interface KernelPipe {
  readFd: number;
  writeFd: number;
}

const MKFIFO = ['/usr/bin/mkfifo', '/bin/mkfifo'].find((file) => fs.existsSync(file)) ?? 'mkfifo';

// Makes `count` pipes with one mkfifo call; nothing is left on disk when this returns or throws.
export function createKernelPipes(count: number): KernelPipe[] {
  if (count === 0) return [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-pipes-'));
  const pipes: KernelPipe[] = [];
  const opened: number[] = [];
  try {
    fs.chmodSync(dir, 0o700);
    const paths = Array.from({ length: count }, (_, i) => path.join(dir, `p${i}`));
    // By absolute path: the stages' PATH (even an empty one) is the user's business, not safe-run's.
    execFileSync(MKFIFO, ['-m', '600', ...paths], { stdio: 'ignore' });
    for (const fifo of paths) {
      // O_RDWR never blocks on Linux; with it open, the read-only and write-only opens do not block either.
      const holder = fs.openSync(fifo, 'r+');
      opened.push(holder);
      const readFd = fs.openSync(fifo, 'r');
      opened.push(readFd);
      const writeFd = fs.openSync(fifo, 'w');
      opened.push(writeFd);
      fs.closeSync(holder);
      opened.splice(opened.indexOf(holder), 1);
      fs.unlinkSync(fifo);
      pipes.push({ readFd, writeFd });
    }
    return pipes;
  } catch (error) {
    for (const fd of opened) closeQuietly(fd);
    throw error;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function closeQuietly(fd: number | null): void {
  if (fd === null) return;
  try {
    fs.closeSync(fd);
  } catch {
    // already closed
  }
}
