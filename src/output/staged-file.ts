import fs from 'node:fs';
import path from 'node:path';
import { randomHex } from '../random-hex.js';

// The product of a run with --output FILE, staged beside FILE (same directory, so the final rename
// is atomic: same file system). Created exclusively with mode 0666 less the umask, as a new FILE
// would be; published by fsync and rename; otherwise removed, or kept as FILE.partial.
export interface StagedFile {
  // FILE as given, and the file actually replaced (a symbolic link's target).
  file: string;
  target: string;
  path: string;
  fd: number;
  stream: fs.WriteStream;
  // The first write error, if any (ENOSPC, EIO): such a product is never published.
  error(): string | null;
  bytes(): number;
}

// Where FILE's product is staged; the name is chosen before the file exists, so that a guard can be
// told about it first and no moment exists when the file is there and nobody would remove it.
export function stagingPath(file: string): { target: string; path: string } {
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  const target = stat?.isSymbolicLink() ? fs.realpathSync(file) : path.resolve(file);
  const name = `.${path.basename(target)}.${process.pid}.${randomHex(4)}.staged`;
  return { target, path: path.join(path.dirname(target), name) };
}

export function createStagedFile(file: string, where: { target: string; path: string }): StagedFile {
  const fd = fs.openSync(
    where.path,
    fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL,
    0o666,
  );
  const stream = fs.createWriteStream('', { fd, autoClose: false });
  let failure: string | null = null;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    failure ??= error.code ?? error.message;
  });
  return {
    file,
    target: where.target,
    path: where.path,
    fd,
    stream,
    error: () => failure,
    // The file's size: what the run wrote into it, whether through `stream` (--output) or by a stage
    // that opened the path itself (--atomic-redirects).
    bytes: () => fs.statSync(where.path, { throwIfNoEntry: false })?.size ?? stream.bytesWritten,
  };
}

// Everything written so far reaches the disk (or the write error is known); the fd is closed.
export async function closeStaged(staged: StagedFile): Promise<void> {
  const { stream } = staged;
  if (!stream.destroyed) {
    await new Promise<void>((resolve) => {
      stream.once('error', () => resolve());
      stream.end(() => resolve());
    });
  }
  try {
    fs.fsyncSync(staged.fd);
  } catch (error) {
    staged.stream.emit('error', error);
  }
  fs.closeSync(staged.fd);
}

// Renames the staged file over FILE. An existing FILE's permission bits are kept (as a shell's `>`
// keeps them); a new FILE has the staged file's, 0666 less the umask. Returns the error, or null.
export function publishStaged(staged: StagedFile): string | null {
  try {
    const old = fs.statSync(staged.target, { throwIfNoEntry: false });
    if (old) fs.chmodSync(staged.path, old.mode & 0o7777);
    fs.renameSync(staged.path, staged.target);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? String(error);
  }
  syncDirectory(path.dirname(staged.target));
  return null;
}

// Removes the staged file, or keeps it as FILE.partial (replacing an older one). Returns the kept path.
export function discardStaged(staged: StagedFile, keep: boolean): string | null {
  if (keep) {
    const partial = `${staged.target}.partial`;
    try {
      fs.renameSync(staged.path, partial);
      // Named as the user named FILE, unless FILE was a link (then beside the file it points to).
      return path.resolve(staged.file) === staged.target ? `${staged.file}.partial` : partial;
    } catch {
      // fall through: never leave the staged file behind
    }
  }
  fs.rmSync(staged.path, { force: true });
  return null;
}

// The rename itself reaches the disk only with its directory; best effort (some file systems refuse).
function syncDirectory(dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // not supported here: the rename is still atomic, only its durability waits for the kernel
  }
}
