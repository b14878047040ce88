// The order calls run in, as in a terminal where each command starts from the state the one before
// left, except that calls which cannot change that state (no cd, export or bash fallback: see
// call-order.ts) run side by side: a client that sends `git status` and `git diff` together gets both
// at once. A call that may change the state waits for every call before it, and every call after it
// waits for it.
export class CallOrder {
  // The last call that may change the state, and the calls that came after it.
  private lastWriter: Promise<unknown> = Promise.resolve();
  private sinceWriter: Promise<unknown>[] = [];
  private readonly running = new Set<Promise<unknown>>();

  schedule<T>(writes: boolean, work: () => Promise<T>): Promise<T> {
    const before = writes ? Promise.allSettled([this.lastWriter, ...this.sinceWriter]) : this.lastWriter;
    const call = before.then(work, work);
    const done = call.catch(() => {});
    if (writes) {
      this.lastWriter = done;
      this.sinceWriter = [];
    } else {
      this.sinceWriter.push(done);
    }
    this.running.add(call);
    void done.finally(() => this.running.delete(call));
    return call;
  }

  // Resolves once every call scheduled so far has ended.
  async settled(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }
}
