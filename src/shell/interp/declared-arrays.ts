import type { Assign } from '../syntax/nodes.js';
import type { Bytes } from '../syntax/source.js';

// An element of NAME=( ... ) expanded: [key]=value (the key's text, not yet a subscript) or a plain
// word's field.
export interface RawElement {
  key: Bytes | null;
  value: Bytes;
  // The element as written when its subscript is a literal @ or * (([*]=v) in an indexed array is
  // said and left out).
  allWritten?: string;
}

// A declaration builtin's NAME=( ... ) arguments, expanded with its other words (bash expands them
// before the builtin runs, and set -x shows them so), until the builtin assigns them.
const expandedBefore = new WeakMap<Assign, RawElement[]>();

export function keepDeclaredArray(assign: Assign, raw: RawElement[]): void {
  expandedBefore.set(assign, raw);
}

export function declaredArray(assign: Assign): RawElement[] | undefined {
  return expandedBefore.get(assign);
}

export function takeDeclaredArray(assign: Assign): RawElement[] | undefined {
  const raw = expandedBefore.get(assign);
  expandedBefore.delete(assign);
  return raw;
}
