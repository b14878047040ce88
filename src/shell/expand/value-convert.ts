import type { Bytes } from '../syntax/source.js';
import { AssocTable } from './assoc-table.js';
import { IndexedItems } from './indexed-items.js';
import type { Variable } from './variable.js';

// NAME[index]=value (or +=) on the variable: a string becomes an indexed array (or an associative
// one, when declared so) with its value as element 0.
export function assignElement(
  integerValue: (text: Bytes) => Bytes,
  variable: Variable,
  index: number | Bytes,
  value: Bytes,
  append: boolean,
): void {
  let current = variable.value;
  if (!current || current.kind === 'scalar') {
    const items = new IndexedItems();
    if (current?.kind === 'scalar') items.set(0, current.value);
    current =
      variable.attrs.array === 'assoc'
        ? { kind: 'assoc', items: new AssocTable() }
        : { kind: 'indexed', items };
    variable.value = current;
  }
  if (current.kind === 'assoc') {
    const key = String(index);
    const old = current.items.get(key) ?? '';
    current.items.set(key, converted(integerValue, variable, value, append ? old : null));
  } else {
    const at = typeof index === 'number' ? index : Number(index);
    const old = current.items.get(at) ?? '';
    current.items.set(at, converted(integerValue, variable, value, append ? old : null));
  }
}

// A value as the variable's attributes make it: arithmetic for -i (appended as a sum), case for -l/-u.
export function converted(
  integerValue: (text: Bytes) => Bytes,
  variable: Variable,
  value: Bytes,
  appendTo: Bytes | null,
): Bytes {
  let result = value;
  if (variable.attrs.integer) {
    result = integerValue(appendTo === null || appendTo === '' ? value : `${appendTo}+(${value})`);
  } else if (appendTo !== null) result = appendTo + value;
  if (variable.attrs.lower) result = result.toLowerCase();
  if (variable.attrs.upper) result = result.toUpperCase();
  return result;
}
