import fs from 'node:fs';
import path from 'node:path';
import { RequestError } from '../errors.js';

// Paths a plan names, checked before anything starts: each problem is one RequestError line.

// What is at `file`, or undefined when nothing is: also when a part of the path before the last is a
// file (`/dev/null/x`, ENOTDIR), which statSync throws for even with throwIfNoEntry off.
export function statOrNone(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

export function checkStdinFile(file: string): void {
  const stat = statOrNone(file);
  if (!stat) throw new RequestError('usage.stdin', `stdin ${file}: no such file`);
  if (stat.isDirectory()) {
    throw new RequestError('usage.stdin', `stdin ${file}: is a directory; name a file, or null for no input`);
  }
}

// --cwd: a directory that exists and can be entered.
export function checkRunCwd(dir: string): void {
  const stat = statOrNone(dir);
  if (!stat) throw new RequestError('usage.cwd', `--cwd ${dir}: no such directory`);
  if (!stat.isDirectory()) throw new RequestError('usage.cwd', `--cwd ${dir}: not a directory`);
  try {
    fs.accessSync(dir, fs.constants.X_OK);
  } catch {
    throw new RequestError('usage.cwd', `--cwd ${dir}: permission denied (cannot enter it)`);
  }
}

// A file safe-run will write (--report): not a directory, in a writable directory.
export function checkWritableFile(file: string, flag: string): void {
  if (file === '') throw new RequestError('usage.path', `${flag}: empty; name a file`);
  if (statOrNone(file)?.isDirectory()) {
    throw new RequestError('usage.path', `${flag} ${file}: is a directory; name a file`);
  }
  const dir = path.dirname(path.resolve(file));
  try {
    if (!statOrNone(dir)?.isDirectory()) throw new Error('not a directory');
    fs.accessSync(dir, fs.constants.W_OK);
  } catch {
    throw new RequestError(
      'usage.path',
      `${flag} ${file}: directory ${dir} does not exist or is not writable`,
    );
  }
}

// The log directory must exist as a directory or be creatable: its nearest existing ancestor is a
// writable directory. Nothing is created before the run.
export function checkLogDir(dir: string, label = 'log-dir'): void {
  let current = path.resolve(dir);
  for (;;) {
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(current, { throwIfNoEntry: false });
    } catch (error) {
      // ENOTDIR: an ancestor is a file; going up finds it, and the message names it.
      if ((error as NodeJS.ErrnoException).code !== 'ENOTDIR') {
        throw new RequestError('usage.path', `${label} ${dir}: a part of it cannot be read`);
      }
      current = path.dirname(current);
      continue;
    }
    if (!stat && fs.lstatSync(current, { throwIfNoEntry: false })) {
      throw new RequestError('usage.path', `${label} ${dir}: ${current} is a symbolic link to nothing`);
    }
    if (stat && (current === '/proc' || current.startsWith('/proc/'))) {
      throw new RequestError('usage.path', `${label} ${dir}: /proc is not a place for files`);
    }
    if (stat) {
      if (!stat.isDirectory()) {
        throw new RequestError('usage.path', `${label} ${dir}: ${current} is not a directory`);
      }
      try {
        fs.accessSync(current, fs.constants.W_OK);
      } catch {
        throw new RequestError('usage.path', `${label} ${dir}: ${current} is not writable`);
      }
      return;
    }
    const parent = path.dirname(current);
    if (parent === current) return;
    current = parent;
  }
}
