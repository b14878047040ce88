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
  it('hands a run the spare batch the watchdog made ahead, and leaves nothing on disk once released', async () => {
    const support = new RunSupport();
    support.prepare(4);
    const order = support.take(2);
    expect(order.batch.paths).toHaveLength(2);
    expect(await order.made).toBe(true);
    for (const path of order.batch.paths) expect(lstatSync(path).isFIFO()).toBe(true);
    // The spare held four: the run sees two, and the directory goes whole.
    expect(readdirSync(order.batch.dir).sort()).toEqual(['p0', 'p1', 'p2', 'p3']);
    support.release(order);
    expect(readdirSync(scratch)).toEqual([]);

    // Too many for a spare: ordered on the spot.
    support.prepare(4);
    const larger = support.take(6);
    expect(await larger.made).toBe(true);
    expect(readdirSync(larger.batch.dir)).toHaveLength(6);
    support.release(larger);
    const pid = support.warden.pid!;
    support.close();
    // The unused spare is removed by the watchdog once it has made it, then the watchdog exits.
    await waitFor('the spare batch to be removed', () => readdirSync(scratch).length === 0);
    await waitFor('the watchdog to exit', () => !isAlive(pid));
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
