import type { Bytes } from '../syntax/source.js';

// An indexed array's elements by index (sparse): a Map that keeps its largest index and its indices
// in order as they change, so an append (a+=(x)), a read from the end (${a[-1]}) and a listing cost
// no pass over all of them each time (20,000 appends were quadratic).
export class IndexedItems extends Map<number, Bytes> {
  // The largest index (-1: none), unless `stale` (the largest was removed).
  private top = -1;
  private stale = false;
  // The indices in ascending order, or null when they must be sorted again.
  private order: number[] | null = [];

  constructor(entries?: Iterable<readonly [number, Bytes]>) {
    // (Map's constructor would call set() before the fields above are made.)
    super();
    if (entries) for (const [key, value] of entries) this.set(key, value);
  }

  override set(key: number, value: Bytes): this {
    if (!this.has(key)) {
      if (!this.stale && key > this.top) this.top = key;
      const order = this.order;
      if (order !== null && (order.length === 0 || key > order[order.length - 1]!)) order.push(key);
      else this.order = null;
    }
    return super.set(key, value);
  }

  override delete(key: number): boolean {
    if (!super.delete(key)) return false;
    if (key === this.top) this.stale = true;
    if (this.order !== null && this.order[this.order.length - 1] === key) this.order.pop();
    else this.order = null;
    return true;
  }

  override clear(): void {
    super.clear();
    this.top = -1;
    this.stale = false;
    this.order = [];
  }

  // The largest index, -1 when there is none.
  maxIndex(): number {
    if (this.stale) {
      this.top = -1;
      for (const key of this.keys()) if (key > this.top) this.top = key;
      this.stale = false;
    }
    return this.top;
  }

  // The indices in ascending order (not to be changed by the caller).
  sortedIndices(): readonly number[] {
    if (this.order === null) this.order = [...this.keys()].sort((a, b) => a - b);
    return this.order;
  }
}
