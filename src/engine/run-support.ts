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

// What the engine runs of one safe-run process share, one after the other: one watchdog (one sh for a
// whole -c text instead of one per step), and FIFOs made by it while Node goes on. The CLI opens one
// for its run (and its own guard); a -c step with more steps after it has the next step's FIFOs made
// while it runs. A run given none opens its own and closes it at its end.
export class RunSupport {
  readonly warden = new Warden();
  private spare: FifoOrder | null = null;

  // Has a batch of `count` made ahead for the next run (the size of this one: the steps of a text are
  // mostly alike, and a batch of exactly the size used leaves an empty directory, one rmdir to remove),
  // unless one is on its way.
  prepare(count: number): void {
    this.spare ??= this.order(count);
  }

  // A run's view of the watchdog, with its marker (and so its sweep) added.
  lease(marker: Marker | null): Watchdog {
    return this.warden.lease(marker);
  }

  // `count` FIFOs for a run: the spare batch when it holds enough, else a batch ordered now.
  take(count: number): FifoOrder {
    const spare = this.spare;
    if (!spare || spare.batch.paths.length < count) return this.order(count);
    this.spare = null;
    return { ...spare, batch: { dir: spare.batch.dir, paths: spare.batch.paths.slice(0, count) } };
  }

  // The run is done with its batch (opened, or never used): nothing of it may stay on disk. While the
  // watchdog may still be making it, removing it here could race its mkfifo; the watchdog removes it
  // then, after making it (it reads its lines in order).
  release(order: FifoOrder): void {
    if (order.answered() || !this.warden.active) discardFifos(order.batch);
    this.warden.forgetDir(order.batch.dir);
  }

  // The process's last run is over: the spare goes, and the watchdog exits without killing anything.
  close(): void {
    if (this.spare) this.release(this.spare);
    this.spare = null;
    this.warden.close();
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
