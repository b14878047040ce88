import type { Bytes } from '../syntax/source.js';
import type { AssocTable } from './assoc-table.js';
import { IndexedItems } from './indexed-items.js';

// A shell variable's value: a string, an indexed array (sparse), or an associative array.
export type Value =
  | { kind: 'scalar'; value: Bytes }
  | { kind: 'indexed'; items: IndexedItems }
  | { kind: 'assoc'; items: AssocTable };

export interface Attrs {
  exported: boolean;
  readonly: boolean;
  integer: boolean;
  lower: boolean;
  upper: boolean;
  nameref: boolean;
  // Declared as an array (-a / -A) even while it has no value.
  array: 'indexed' | 'assoc' | null;
}

export interface Variable {
  // null: declared (it has attributes) but not set.
  value: Value | null;
  attrs: Attrs;
  // A subshell's copy, for one the shell keeps state in ($RANDOM's generator).
  cloneForSubshell?(): Variable;
  // The shell makes it again each run ($RANDOM): a session does not carry it to its next call.
  readonly remade?: boolean;
}

export const NO_ATTRS: Attrs = {
  exported: false,
  readonly: false,
  integer: false,
  lower: false,
  upper: false,
  nameref: false,
  array: null,
};

// A variable whose value is found when it is first read (or never, if the text assigns or unsets it
// first): bash's MACHTYPE and the like, which safe-run asks of bash.
class LazyScalar implements Variable {
  private found: Value | null | undefined;
  // The text gave it a value of its own.
  assigned = false;

  constructor(
    private readonly compute: () => Bytes | null,
    readonly attrs: Attrs = { ...NO_ATTRS },
  ) {}

  get value(): Value | null {
    if (this.found === undefined) {
      const text = this.compute();
      this.found = text === null ? null : { kind: 'scalar', value: text };
    }
    return this.found;
  }

  set value(value: Value | null) {
    this.found = value;
    this.assigned = true;
  }

  get pending(): boolean {
    return this.found === undefined;
  }

  copy(): Variable {
    return new LazyScalar(this.compute, { ...this.attrs });
  }
}

export function lazyScalar(compute: () => Bytes | null): Variable {
  return new LazyScalar(compute);
}

// Whether the variable still has the value the shell gave it (a lazyScalar's, read or not).
export function isShellDefault(variable: Variable): boolean {
  return (variable instanceof LazyScalar && !variable.assigned) || variable.remade === true;
}

// A copy that shares nothing it could change with the original (a subshell's); one not yet read
// stays so.
export function cloneVariable(variable: Variable): Variable {
  if (variable instanceof LazyScalar && variable.pending) return variable.copy();
  if (variable.cloneForSubshell) return variable.cloneForSubshell();
  const { value } = variable;
  let copied: Value | null = value;
  if (value?.kind === 'indexed') copied = { kind: 'indexed', items: new IndexedItems(value.items) };
  else if (value?.kind === 'assoc') copied = { kind: 'assoc', items: value.items.clone() };
  return { value: copied, attrs: { ...variable.attrs } };
}

// Which kind of array a variable is (declared as one, or given a list), or null for a string.
export function arrayKind(variable: Variable): 'indexed' | 'assoc' | null {
  return variable.attrs.array ?? (variable.value?.kind === 'scalar' ? null : (variable.value?.kind ?? null));
}

// Whether a nameref may hold `text`: a variable's name, or (`element`) an array element's.
export function namesVariable(text: Bytes, element: boolean): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(text) || (element && /^[A-Za-z_][A-Za-z0-9_]*\[.+\]$/s.test(text));
}

// The value as ${name} gives it: a scalar, or element 0 of an indexed array ("0" of an associative
// one); null when unset.
export function scalarOf(variable: Variable | undefined): Bytes | null {
  const value = variable?.value;
  if (!value) return null;
  if (value.kind === 'scalar') return value.value;
  if (value.kind === 'indexed') return value.items.get(0) ?? null;
  return value.items.get('0') ?? null;
}

// The elements of a variable in order (a scalar is one element); empty when unset.
export function elementsOf(variable: Variable | undefined): Bytes[] {
  const value = variable?.value;
  if (!value) return [];
  if (value.kind === 'scalar') return [value.value];
  if (value.kind === 'indexed') return sortedKeys(value.items).map((k) => value.items.get(k)!);
  return value.items.entries().map(([, v]) => v);
}

export function keysOf(variable: Variable | undefined): Bytes[] {
  const value = variable?.value;
  if (!value) return [];
  if (value.kind === 'scalar') return ['0'];
  if (value.kind === 'indexed') return sortedKeys(value.items).map(String);
  return value.items.keys();
}

export function sortedKeys(items: IndexedItems): readonly number[] {
  return items.sortedIndices();
}

// The largest index of a variable's value as an indexed array (a scalar is element 0); -1 for none.
export function lastIndex(variable: Variable | undefined): number {
  const value = variable?.value;
  if (!value) return -1;
  return value.kind === 'indexed' ? value.items.maxIndex() : 0;
}
