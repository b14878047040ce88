// The largest of `values` (-Infinity for none). `Math.max(...values)` passes each as an argument and
// overflows the stack past about 120,000 of them (a table of the stages of a long loop, an array
// grown element by element).
export function maxOf(values: Iterable<number>): number {
  let max = Number.NEGATIVE_INFINITY;
  for (const value of values) if (value > max) max = value;
  return max;
}

// Appends `items` to `out`. `out.push(...items)` overflows the stack the same way (the fields of
// `$(seq 200000)`, the names a glob matched).
export function pushAll<T>(out: T[], items: Iterable<T>): void {
  for (const item of items) out.push(item);
}
