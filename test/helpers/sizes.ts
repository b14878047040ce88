// How many generated cases the slow differential, fuzz and stream runs take. CI runs on a shared
// 2-core runner, so the default is a sample sized to keep the whole suite within its budget at a
// load of 25; SAFE_RUN_TEST_FULL=1 runs every one at full size, and a run's own variable (named at
// its call site) sets that one alone.
export function testSize(quick: number, full: number, own?: string): number {
  const given = own === undefined ? undefined : process.env[own];
  if (given !== undefined && given !== '') {
    const n = Number(given);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`${own} must be a positive integer, not ${given}`);
    return n;
  }
  return process.env.SAFE_RUN_TEST_FULL === '1' ? full : quick;
}
