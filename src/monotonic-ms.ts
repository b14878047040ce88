// Milliseconds on a clock that never goes back (its origin is arbitrary: compare two readings only).
// Not `performance.now()`: Node 20 loads perf_hooks the first time that global is read, about a
// millisecond of every run's start-up for a clock process.hrtime already has.
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
