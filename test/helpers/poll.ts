type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

// Polls until `probe` returns something truthy, and returns that; fails naming `what` at the deadline.
// The deadline only bounds a hang: a probe that waits for work to happen is never a speed check.
export async function waitFor<T>(
  what: string,
  probe: () => T | Promise<T>,
  timeoutMs = 20_000,
): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
