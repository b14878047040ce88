import fs from 'node:fs';
import path from 'node:path';
import type { Watchdog } from '../teardown/watchdog.js';
import type { Destination } from './reporter.js';

type NewFile = Extract<Destination, { kind: 'new-file' }>;

// Enough for every safe-run of a job; past it, something else fills the directory.
const MAX_TRIES = 10_000;

// Writes a whole file under a name nobody has taken: the content goes into a temporary file, which
// is then hard-linked to the first free name (link never replaces a file, so two runs at once each
// get their own), and removed. Returns the path written; throws the errno code.
export function writeNewFile(target: NewFile, content: string, guard: Watchdog | null): string {
  fs.mkdirSync(target.dir, { recursive: true });
  const temp = path.join(target.dir, `.${target.base}.${process.pid}.${Date.now()}.tmp`);
  guard?.watchFile(temp);
  try {
    const fd = fs.openSync(temp, 'wx', 0o666);
    try {
      fs.writeFileSync(fd, content);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    for (let n = 1; n <= MAX_TRIES; n += 1) {
      const file = path.join(target.dir, `${target.base}${n === 1 ? '' : `-${n}`}${target.ext}`);
      try {
        fs.linkSync(temp, file);
        return file;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    throw Object.assign(new Error('no free name'), { code: 'EEXIST' });
  } finally {
    fs.rmSync(temp, { force: true });
    guard?.forgetFile(temp);
  }
}
