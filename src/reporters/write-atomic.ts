import fs from 'node:fs';
import path from 'node:path';

// Writes a whole file or nothing: a temporary file beside the target, flushed, then renamed over it.
// A target that is not a regular file (a terminal, /dev/stdout, a pipe from `>(...)`) is written to
// directly, never replaced; a symbolic link is followed, so the file it names is the one replaced.
export function writeFileAtomic(target: string, content: string): void {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (stat && !stat.isFile()) {
    fs.writeFileSync(target, content);
    return;
  }
  const real = stat ? fs.realpathSync(target) : target;
  const dir = path.dirname(path.resolve(real));
  const temp = path.join(dir, `.${path.basename(real)}.${process.pid}.${Date.now()}.tmp`);
  const fd = fs.openSync(temp, 'wx', 0o644);
  try {
    fs.writeFileSync(fd, content);
    fs.fsyncSync(fd);
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
    throw error;
  }
  fs.closeSync(fd);
  try {
    fs.renameSync(temp, real);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}
