import fs from 'node:fs';
import type { Marker } from '../teardown/marker.js';
import { Warden, type Watchdog } from '../teardown/watchdog.js';
import { discardFifos, type FifoBatch, reserveFifos } from './kernel-pipes.js';

// A run's FIFOs: where they are, and whether the watchdog made them (false: make them here).
export interface FifoOrder {
  readonly batch: FifoBatch;
  readonly made: Promise<boolean>;
  // Whether the watchdog has answered: until then its mkfifo may still be writing into the directory.
  answered(): boolean;
}

// One directory of FIFOs made by one mkfifo of the watchdog, handed out a few at a time to the runs
// that follow. It goes once every FIFO in it was handed out (or it was retired) and every run that
// took some gave them back.
interface Pool {
  readonly order: FifoOrder;
  next: number;
  out: number;
  retired: boolean;
}

// A pool holds the FIFOs of a few runs like the one that ordered it: two for the first pool of a
// process, twice as many for each next one, up to POOL_RUNS (and MAX_POOL FIFOs, never fewer than one
// run's). The watchdog's mkfifo, a process of its own, is then started once every few steps of a long
// text, not once per step (it cost more CPU than the step's own program), and a short text does not
// have FIFOs made for steps it does not have.
const POOL_RUNS = 8;
const MAX_POOL = 64;

// What the engine runs of one safe-run process share, one after the other: one watchdog (one sh for a
// whole -c text instead of one per step), and FIFOs made by it while Node goes on. The CLI opens one
// for its run (and its own guard); a -c step with more steps after it has the next steps' FIFOs made
// while it runs. A run given none opens its own and closes it at its end.
export class RunSupport {
  readonly warden = new Warden();
  private pool: Pool | null = null;
  private poolRuns = 1;
  private readonly pools = new Map<FifoOrder, Pool>();

  // Has FIFOs for the next runs made ahead, enough for `count` at least (the size of this run's: the
  // steps of a text are mostly alike), unless the pool still holds that many.
  prepare(count: number): void {
    if (this.pool && this.left(this.pool) >= count) return;
    if (this.pool) this.retire(this.pool);
    this.poolRuns = Math.min(this.poolRuns * 2, POOL_RUNS);
    const size = Math.max(count, Math.min(count * this.poolRuns, MAX_POOL));
    this.pool = { order: this.order(size), next: 0, out: 0, retired: false };
  }

  // A run's view of the watchdog, with its marker (and so its sweep) added.
  lease(marker: Marker | null): Watchdog {
    return this.warden.lease(marker);
  }

  // `count` FIFOs for a run: from the pool when it holds enough, else a batch ordered now.
  take(count: number): FifoOrder {
    const pool = this.pool;
    if (!pool || this.left(pool) < count) return this.order(count);
    const { batch } = pool.order;
    const order = {
      ...pool.order,
      batch: { dir: batch.dir, paths: batch.paths.slice(pool.next, pool.next + count) },
    };
    pool.next += count;
    pool.out += 1;
    this.pools.set(order, pool);
    return order;
  }

  // The run is done with its FIFOs (opened, or never used): nothing of them may stay on disk. While
  // the watchdog may still be making them, removing them here could race its mkfifo; the watchdog
  // removes the directory then, after making them (it reads its lines in order).
  release(order: FifoOrder): void {
    const pool = this.pools.get(order);
    if (!pool) {
      this.discard(order);
      return;
    }
    this.pools.delete(order);
    // Opened FIFOs are unlinked already; these were never opened (the run ended before its pipes).
    if (order.answered()) for (const path of order.batch.paths) if (fs.existsSync(path)) fs.rmSync(path);
    pool.out -= 1;
    if (pool.out === 0 && (pool.retired || this.left(pool) === 0)) this.finish(pool);
  }

  // The process's last run is over: the pool goes, and the watchdog exits without killing anything.
  close(): void {
    if (this.pool) this.retire(this.pool);
    this.pool = null;
    this.warden.close();
  }

  private left(pool: Pool): number {
    return pool.order.batch.paths.length - pool.next;
  }

  // No more FIFOs are handed out of it; its directory goes once the runs that took some are done.
  private retire(pool: Pool): void {
    pool.retired = true;
    if (this.pool === pool) this.pool = null;
    if (pool.out === 0) this.finish(pool);
  }

  private finish(pool: Pool): void {
    if (this.pool === pool) this.pool = null;
    this.discard(pool.order);
  }

  private discard(order: FifoOrder): void {
    if (order.answered() || !this.warden.active) discardFifos(order.batch);
    this.warden.forgetDir(order.batch.dir);
  }

  private order(count: number): FifoOrder {
    const batch = reserveFifos(count, {
      announce: (dir) => this.warden.claimDir(dir),
      disown: (dir) => this.warden.disownDir(dir),
    });
    let settled = false;
    const made = this.warden.makeFifos(batch.dir, count);
    void made.then(() => {
      settled = true;
    });
    return { batch, made, answered: () => settled };
  }
}
