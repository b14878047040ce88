import { closeSync, constants, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

// Appends one line with a single write(2) on an O_APPEND descriptor, the only way the ledger is
// ever written: concurrent writers each land a whole line and never rewrite anyone else's. Never
// throws; a problem comes back as a warning the caller can show.
export function appendLine(file: string, line: string): string | null {
  const data = Buffer.from(line.endsWith('\n') ? line : `${line}\n`);
  let fd: number | null = null;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    // O_NONBLOCK: a FIFO at the ledger's path fails at once (ENXIO) instead of waiting for a reader.
    fd = openSync(
      file,
      constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | constants.O_NONBLOCK,
      0o600,
    );
    const written = writeSync(fd, data);
    if (written !== data.length) {
      return `facts ledger ${file}: only ${written} of ${data.length} bytes were written (disk full?); the record is torn`;
    }
    return null;
  } catch (error) {
    return `facts ledger ${file}: cannot append (${describeError(error)}); this fact was not recorded, fix the path or pass --no-facts`;
  } finally {
    if (fd !== null) closeQuietly(fd);
  }
}

export function describeError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return code ? `${code}: ${message.replace(`${code}: `, '')}` : message;
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Nothing useful to do: the line is written or the warning already says it is not.
  }
}
