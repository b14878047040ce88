import { readTable } from './sockets.js';

// Who holds a file lock (flock, fcntl/POSIX, OFD), from /proc/locks: one line per lock held, and one
// line starting "->" per process waiting for it. Files are named there by device and inode:
// "1: FLOCK  ADVISORY  WRITE 4711 00:2e:1234 0 EOF" (major and minor in hex, inode in decimal).
// OFD locks belong to an open file, not a process: their pid reads -1 and is left out.
export type LockTable = Map<string, number[]>;

export function readLocks(): LockTable {
  const table: LockTable = new Map();
  for (const line of readTable('/proc/locks').split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 6 || fields[1] === '->') continue;
    const pid = Number(fields[4]);
    const file = fields[5]!;
    if (!Number.isInteger(pid) || pid <= 0) continue;
    table.set(file, [...(table.get(file) ?? []), pid]);
  }
  return table;
}

// "device:inode" as stat gives it (the key of an open fd) -> "MM:mm:inode" as /proc/locks writes it.
// Linux packs a device number with the minor's low 8 bits lowest, then 12 bits of major, then the
// rest of the minor (glibc's gnu_dev_major/gnu_dev_minor).
export function lockKey(key: string): string | null {
  const [devText, inode] = key.split(':');
  const dev = Number(devText);
  if (!Number.isSafeInteger(dev) || inode === undefined) return null;
  const low = dev % 2 ** 32;
  const high = Math.floor(dev / 2 ** 32);
  const major = ((low >>> 8) & 0xfff) | ((high & ~0xfff) >>> 0);
  const minor = (low & 0xff) | ((low >>> 12) & ~0xff);
  const hex = (value: number) => value.toString(16).padStart(2, '0');
  return `${hex(major)}:${hex(minor)}:${inode}`;
}
