import type { Bytes } from '../syntax/source.js';

// An associative array whose keys come back in the order bash's own hash table gives them: bash walks
// its buckets in order, each bucket newest first (hashlib.c), with a 32-bit FNV-1 hash over the key's
// bytes taken as signed chars, 1024 buckets to start (ASSOC_HASH_BUCKETS) and four times as many
// once there are twice as many entries as buckets. `${!a[@]}` and `${a[@]}` then list what bash lists.
export class AssocTable {
  private buckets: Bytes[][] = [];
  private readonly values = new Map<Bytes, Bytes>();
  private readonly hashes = new Map<Bytes, number>();

  constructor(private size = 1024) {
    this.buckets = Array.from({ length: size }, () => []);
  }

  get count(): number {
    return this.values.size;
  }

  get(key: Bytes): Bytes | undefined {
    return this.values.get(key);
  }

  has(key: Bytes): boolean {
    return this.values.has(key);
  }

  set(key: Bytes, value: Bytes): void {
    if (!this.values.has(key)) {
      if (this.values.size >= this.size * 2) this.grow();
      const hash = hashKey(key);
      this.hashes.set(key, hash);
      this.buckets[hash & (this.size - 1)]!.unshift(key);
    }
    this.values.set(key, value);
  }

  delete(key: Bytes): void {
    const hash = this.hashes.get(key);
    if (hash === undefined) return;
    const bucket = this.buckets[hash & (this.size - 1)]!;
    bucket.splice(bucket.indexOf(key), 1);
    this.values.delete(key);
    this.hashes.delete(key);
  }

  keys(): Bytes[] {
    return this.buckets.flat();
  }

  entries(): [Bytes, Bytes][] {
    return this.keys().map((key) => [key, this.values.get(key)!]);
  }

  clone(): AssocTable {
    const copy = new AssocTable(this.size);
    copy.buckets = this.buckets.map((bucket) => [...bucket]);
    for (const [key, value] of this.values) copy.values.set(key, value);
    for (const [key, hash] of this.hashes) copy.hashes.set(key, hash);
    return copy;
  }

  // Walks the old buckets in order, each from its head, pushing onto the heads of the new ones.
  private grow(): void {
    const old = this.buckets;
    this.size *= 4;
    this.buckets = Array.from({ length: this.size }, () => []);
    for (const bucket of old) {
      for (const key of bucket) this.buckets[this.hashes.get(key)! & (this.size - 1)]!.unshift(key);
    }
  }
}

function hashKey(key: Bytes): number {
  let h = 2166136261;
  for (let i = 0; i < key.length; i++) {
    h = Math.imul(h, 16777619) >>> 0;
    const byte = key.charCodeAt(i);
    // char is signed: a byte of 0x80 or more is sign-extended before the xor.
    h = (h ^ (byte >= 0x80 ? byte - 0x100 : byte)) >>> 0;
  }
  return h;
}
