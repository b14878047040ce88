import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { discardFifos, type FifoBatch, reserveFifos } from '../../src/engine/kernel-pipes.js';
import { PipelinePipes } from '../../src/engine/pipeline-pipes.js';

let batch: FifoBatch | null = null;

afterEach(() => {
  if (batch) discardFifos(batch);
  batch = null;
});

describe('a batch the watchdog did not say it made', () => {
  it('is finished here when the mkfifo of a watchdog killed mid-request made part of it', () => {
    // A stage killed the watchdog while its mkfifo ran: no answer came, but that mkfifo made p0 and p1.
    batch = reserveFifos(4);
    execFileSync('mkfifo', ['-m', '600', ...batch.paths.slice(0, 2)]);
    const pipes = new PipelinePipes(2, 'ignore', { batch, made: false });
    expect(pipes.errPipes).toHaveLength(2);
    expect(existsSync(batch.dir)).toBe(false);
    pipes.release();
  });
});
