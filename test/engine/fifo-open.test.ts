import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type OpenStop, openTarget } from '../../src/engine/fifo-open.js';
import { waitFor } from '../helpers/index.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fifo-open-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

// Threads of this process asleep in a FIFO's open, waiting for the other end.
function blockedInOpen(): number {
  return fs.readdirSync('/proc/self/task').filter((tid) => {
    try {
      return fs.readFileSync(`/proc/self/task/${tid}/wchan`, 'utf8').includes('wait_for_partner');
    } catch {
      return false;
    }
  }).length;
}

const stop: OpenStop = { as: 'cancelled', cause: { kind: 'signal', signal: 'SIGTERM' }, afterMs: 0 };

describe("a FIFO's open stopped before it reached the kernel", () => {
  // The stop wins the race before libuv's thread has even called open(2): the other end opened once
  // found nobody waiting, and the open, started after, waited for ever (Node could not exit: a killed
  // job's `read x < fifo` left safe-run running after the text ended, once in a run under load).
  it('is released once it waits, and its descriptor closed', async () => {
    const fifo = path.join(root, 'f');
    execFileSync('mkfifo', [fifo]);
    const before = blockedInOpen();
    for (const flags of [fs.constants.O_RDONLY, fs.constants.O_WRONLY]) {
      const result = await openTarget(fifo, flags, Promise.resolve(stop));
      expect(result).toEqual(stop);
      // Time for the open to reach the kernel (a released one is let go within 10 ms of it).
      await new Promise((resolve) => setTimeout(resolve, 300));
      await waitFor('no thread left in the open', () => blockedInOpen() === before, 10_000);
    }
  });
});
