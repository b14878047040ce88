import {
  accessSync,
  closeSync,
  constants,
  lstatSync,
  openSync,
  readlinkSync,
  readSync,
  type Stats,
  statSync,
} from 'node:fs';

// The file system questions preflight asks, each answered without throwing. A missing file, the
// common answer when PATH is searched, is also found without an exception made inside: Node builds
// one with a stack for every failed call (about 30 µs), and a search of a long PATH asked twice per
// entry.

export function readAt(file: string, position: number, size: number): Buffer | null {
  let fd: number | null = null;
  try {
    fd = openSync(file, 'r');
    const buf = Buffer.alloc(size);
    return buf.subarray(0, readSync(fd, buf, 0, size, position));
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

export function statOf(file: string): { stats: Stats } | { errno: string } {
  try {
    const stats = statSync(file, { throwIfNoEntry: false });
    return stats ? { stats } : { errno: 'ENOENT' };
  } catch (error) {
    return { errno: (error as NodeJS.ErrnoException).code ?? 'ENOENT' };
  }
}

export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// An existing regular file or symlink to one that this user may execute: what the kernel would run.
export function isRunnableFile(file: string, stats: Stats): boolean {
  return !stats.isDirectory() && isExecutable(file);
}

export function isSymlink(file: string): boolean {
  try {
    return lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
  } catch {
    return false;
  }
}

export function linkTarget(file: string): string {
  try {
    return readlinkSync(file);
  } catch {
    return 'a missing file';
  }
}

export function modeOf(stats: Stats): string {
  return (stats.mode & 0o7777).toString(8);
}
