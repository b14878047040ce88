import { closeSync, openSync, readSync } from 'node:fs';

// Random bytes as hex, for names that must not collide (a run's marker, a staged file). Read from
// /dev/urandom rather than node:crypto: loading node:crypto pulls in some twenty internal modules,
// which cost a few milliseconds of every start.
export function randomHex(bytes: number): string {
  const buffer = Buffer.alloc(bytes);
  let fd: number | null = null;
  try {
    fd = openSync('/dev/urandom', 'r');
    if (readSync(fd, buffer, 0, bytes, null) === bytes) return buffer.toString('hex');
  } catch {
    // no /dev/urandom here: the Web Crypto global below
  } finally {
    if (fd !== null) closeSync(fd);
  }
  globalThis.crypto.getRandomValues(buffer);
  return buffer.toString('hex');
}
