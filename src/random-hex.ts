import { closeSync, openSync, readSync } from 'node:fs';

// Random bytes as hex, for names that must not collide (a run's marker, a staged file). Read from
// /dev/urandom rather than node:crypto: loading node:crypto pulls in some twenty internal modules,
// which cost a few milliseconds of every start. Read a pool at a time (each step of a -c text takes
// two names): bytes handed out once are never handed out again. The pool is filled at first use,
// never while the module loads, so no build step can freeze its bytes into what every run shares.
export function randomHex(bytes: number): string {
  if (pool.length - used < bytes) refill(Math.max(POOL_BYTES, bytes));
  const hex = pool.toString('hex', used, used + bytes);
  used += bytes;
  return hex;
}

const POOL_BYTES = 256;
let pool = Buffer.alloc(0);
let used = 0;

function refill(size: number): void {
  const fresh = Buffer.alloc(size);
  let fd: number | null = null;
  let filled = false;
  try {
    fd = openSync('/dev/urandom', 'r');
    filled = readSync(fd, fresh, 0, size, null) === size;
  } catch {
    // no /dev/urandom here: the Web Crypto global below
  } finally {
    if (fd !== null) closeSync(fd);
  }
  if (!filled) globalThis.crypto.getRandomValues(fresh);
  pool = fresh;
  used = 0;
}
