import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomHex } from '../random-hex.js';
import { mkfifoPath } from '../teardown/watchdog-process.js';

// A real kernel pipe as two blocking file descriptors. Node has no pipe(2), and its stdio 'pipe' is a
// socketpair, which changes what programs see (a writer to a closed reader gets ECONNRESET instead of
// SIGPIPE). A FIFO opened from both sides and unlinked at once is an ordinary pipe: see docs/linking.md.
export interface KernelPipe {
  readFd: number;
  writeFd: number;
}

// The FIFOs of one run: named in a private directory before anyone makes them, so that the
// watchdog's sh can make them (one process start fewer for safe-run) while Node goes on.
export interface FifoBatch {
  readonly dir: string;
  readonly paths: readonly string[];
}

// Who must know of a batch's directory before it exists: the watchdog, which removes it if safe-run
// dies, hears its name first, so that there is no moment at which it exists unknown to the watchdog.
interface DirClaim {
  announce(dir: string): void;
  // The name was not ours after all (someone had it already): forget it without removing anything.
  disown(dir: string): void;
}

export function reserveFifos(count: number, claim: DirClaim | null = null): FifoBatch {
  const dir = freshDirectory(claim);
  return { dir, paths: Array.from({ length: count }, (_, i) => path.join(dir, `p${i}`)) };
}

// A new directory of our own (mode 700) under the temporary directory, named at random as mkdtemp
// would, but announced before it is made.
function freshDirectory(claim: DirClaim | null): string {
  for (let attempt = 1; ; attempt++) {
    const dir = path.join(os.tmpdir(), `safe-run-pipes-${randomHex(6)}`);
    claim?.announce(dir);
    try {
      fs.mkdirSync(dir, { mode: 0o700 });
    } catch (error) {
      claim?.disown(dir);
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && attempt < 5) continue;
      throw error;
    }
    try {
      // mkdir's mode passes through the umask.
      fs.chmodSync(dir, 0o700);
    } catch (error) {
      discardFifos({ dir, paths: [] });
      throw error;
    }
    return dir;
  }
}

// Makes the batch's FIFOs here, when nobody made them for us. A watchdog killed while its mkfifo ran
// answers nothing, but that mkfifo goes on without it and may have made some of them: in the batch's
// private directory (mode 700) a FIFO can only be one of ours, so one that is there already is used.
export function makeFifos(batch: FifoBatch): void {
  if (batch.paths.length === 0) return;
  try {
    execFileSync(mkfifoPath(), ['-m', '600', ...batch.paths], { stdio: 'ignore' });
  } catch (error) {
    if (!batch.paths.every(isFifo)) throw error;
  }
}

function isFifo(file: string): boolean {
  try {
    return fs.lstatSync(file).isFIFO();
  } catch {
    return false;
  }
}

export function discardFifos(batch: FifoBatch): void {
  // Opened FIFOs are unlinked already, so the directory is usually empty: one rmdir, not a walk. A run
  // discards its batch when it opens it and again at its end: the second finds it gone, asked without
  // an exception (each costs Node a stack trace).
  if (!fs.existsSync(batch.dir)) return;
  try {
    fs.rmdirSync(batch.dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      fs.rmSync(batch.dir, { recursive: true, force: true });
  }
}

// Opens the batch's FIFOs as pipes, each unlinked once open. The directory is the caller's to remove
// (RunSupport.release): the steps of a text take their FIFOs a few at a time from one directory.
export function openFifos(batch: FifoBatch): KernelPipe[] {
  const pipes: KernelPipe[] = [];
  const opened: number[] = [];
  try {
    for (const fifo of batch.paths) {
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
