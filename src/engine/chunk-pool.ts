const SIZE = 64 * 1024;
const KEEP = 8;

// Reusable buffers for bytes that must outlive the reader's own (reused) buffer until a write
// completes. Without it every live chunk would be a fresh 64 KiB allocation, and peak RSS would grow
// with throughput until the GC caught up.
export class ChunkPool {
  private readonly free: Buffer[] = [];

  // A copy of `bytes` and the function that gives its memory back once nobody reads it any more.
  copy(bytes: Buffer): { view: Buffer; release: () => void } {
    if (bytes.length > SIZE) return { view: Buffer.from(bytes), release: () => {} };
    const base = this.free.pop() ?? Buffer.allocUnsafeSlow(SIZE);
    bytes.copy(base);
    return {
      view: base.subarray(0, bytes.length),
      release: () => {
        if (this.free.length < KEEP) this.free.push(base);
      },
    };
  }
}
