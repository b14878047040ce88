import { existsSync, lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunSupport } from '../../src/engine/run-support.js';
import { isAlive, waitFor } from '../helpers/index.js';

// FIFO batches are made under os.tmpdir(): a directory of this test's own, so that what is left can
// be counted without seeing other tests' runs.
let scratch = '';
let savedTmpdir: string | undefined;

beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'safe-run-test-support-'));
  savedTmpdir = process.env.TMPDIR;
  process.env.TMPDIR = scratch;
});

afterEach(() => {
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
  rmSync(scratch, { recursive: true, force: true });
});

describe('RunSupport', () => {
  it('hands the runs their FIFOs from a pool the watchdog made ahead, and leaves nothing on disk at close', async () => {
    const support = new RunSupport();
    support.prepare(4);
    const order = support.take(2);
    expect(order.batch.paths).toHaveLength(2);
    expect(await order.made).toBe(true);
    for (const path of order.batch.paths) expect(lstatSync(path).isFIFO()).toBe(true);
    // The pool holds the FIFOs of several runs like this one, made by one mkfifo: the next run takes
    // the next two from the same directory, and the directory stays while FIFOs are left in it.
    const pool = readdirSync(order.batch.dir);
    expect(pool.length).toBeGreaterThan(4);
    support.release(order);
    const next = support.take(2);
    expect(next.batch.dir).toBe(order.batch.dir);
    expect(next.batch.paths).toEqual([2, 3].map((i) => join(order.batch.dir, `p${i}`)));
    support.release(next);
    expect(readdirSync(order.batch.dir)).toHaveLength(pool.length - 4);

    // Too many for the pool: ordered on the spot, in a directory of its own that goes with the run.
    const larger = support.take(pool.length);
    expect(await larger.made).toBe(true);
    expect(larger.batch.dir).not.toBe(order.batch.dir);
    expect(readdirSync(larger.batch.dir)).toHaveLength(pool.length);
    support.release(larger);
    expect(existsSync(larger.batch.dir)).toBe(false);
    const pid = support.warden.pid!;
    support.close();
    await waitFor('the pool to be removed', () => readdirSync(scratch).length === 0);
    await waitFor('the watchdog to exit', () => !isAlive(pid));
  });

  it('removes a pool once every FIFO in it was handed out and given back', async () => {
    const support = new RunSupport();
    support.prepare(2);
    const first = support.take(2);
    await first.made;
    const size = readdirSync(first.batch.dir).length;
    const orders = [first];
    for (let taken = 2; taken < size; taken += 2) orders.push(support.take(2));
    expect(new Set(orders.map((order) => order.batch.dir)).size).toBe(1);
    for (const order of orders.slice(0, -1)) support.release(order);
    expect(existsSync(first.batch.dir)).toBe(true);
    support.release(orders.at(-1)!);
    expect(existsSync(first.batch.dir)).toBe(false);
    support.close();
  });

  it('removes a batch the watchdog is still making only after it made it, never racing its mkfifo', async () => {
    const support = new RunSupport();
    const pid = support.warden.pid!;
    const order = support.take(64);
    support.release(order);
    support.close();
    await waitFor('the batch to be removed', () => !existsSync(order.batch.dir));
    await waitFor('the watchdog to exit', () => !isAlive(pid));
    expect(readdirSync(scratch)).toEqual([]);
  });
});
