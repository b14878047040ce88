import type { Bytes } from '../syntax/source.js';

// bash remembers where it found each program it ran by a PATH search: `hash` lists the table, `type`
// says "is hashed". Assigning PATH empties it; here the table is emptied when PATH differs from the
// value its entries were found with.
export class HashTable {
  private readonly entries = new Map<Bytes, { path: string; hits: number }>();
  private pathValue: Bytes | null = null;

  copy(): HashTable {
    const copy = new HashTable();
    for (const [name, entry] of this.entries) copy.entries.set(name, { ...entry });
    copy.pathValue = this.pathValue;
    return copy;
  }

  // The entries, once PATH is what they were found with.
  list(pathValue: Bytes | null): [Bytes, { path: string; hits: number }][] {
    if (pathValue !== this.pathValue) this.entries.clear();
    this.pathValue = pathValue;
    return [...this.entries];
  }

  get(name: Bytes, pathValue: Bytes | null): { path: string; hits: number } | undefined {
    return this.list(pathValue).find(([entry]) => entry === name)?.[1];
  }

  // A program found by a PATH search ran (hits counts the runs), or `hash NAME` found it (none).
  note(name: Bytes, path: string, pathValue: Bytes | null, ran: boolean): void {
    const entry = this.get(name, pathValue);
    const hits = (entry?.path === path ? entry.hits : 0) + (ran ? 1 : 0);
    this.entries.set(name, { path, hits });
  }

  delete(name: Bytes): boolean {
    return this.entries.delete(name);
  }

  clear(): void {
    this.entries.clear();
  }
}
