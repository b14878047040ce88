import { describe, expect, it, vi } from 'vitest';
import { IndexedItems } from '../../src/shell/expand/indexed-items.js';

// An indexed array's elements (a+=(x) appends at the largest index + 1, ${a[-1]} reads it, "${a[@]}"
// lists in index order): none of that may go over every element each time, or appending N elements
// one by one costs N² (60,000 appends took 11 s). Counted by the passes, not timed.
describe('the elements of an indexed array', () => {
  it('append, and give their largest index and their order, without a pass over them', () => {
    const items = new IndexedItems();
    const passes = vi.spyOn(items, 'keys');
    for (let i = 0; i < 20_000; i++) items.set(items.maxIndex() + 1, `x${i}`);
    expect(items.maxIndex()).toBe(19_999);
    expect(items.sortedIndices().length).toBe(20_000);
    expect(items.sortedIndices()[19_999]).toBe(19_999);
    expect(passes).not.toHaveBeenCalled();
  });

  it('find the largest index again once it was removed, in one pass', () => {
    const items = new IndexedItems([
      [0, 'a'],
      [5, 'b'],
      [9, 'c'],
    ]);
    const passes = vi.spyOn(items, 'keys');
    items.delete(9);
    expect(items.maxIndex()).toBe(5);
    expect(items.maxIndex()).toBe(5);
    expect(passes).toHaveBeenCalledTimes(1);
    items.set(7, 'd');
    expect(items.maxIndex()).toBe(7);
    expect(items.sortedIndices()).toEqual([0, 5, 7]);
  });

  it('sort again only after an element lands before the last one', () => {
    const items = new IndexedItems();
    items.set(10, 'a');
    items.set(3, 'b');
    items.set(20, 'c');
    expect(items.sortedIndices()).toEqual([3, 10, 20]);
    items.delete(10);
    expect(items.sortedIndices()).toEqual([3, 20]);
    items.clear();
    expect([items.maxIndex(), items.sortedIndices().length]).toEqual([-1, 0]);
  });
});
