import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmdirSync, statSync } from 'node:fs';
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
    // Every FIFO opened and unlinked; the directory is its reserver's to remove (RunSupport.release).
    expect(readdirSync(batch.dir)).toEqual([]);
    pipes.release();
  });
});

describe('a batch directory', () => {
  it('is named to its claim before it exists, and a name someone else had is disowned, not removed', () => {
    const announced: string[] = [];
    const disowned: string[] = [];
    batch = reserveFifos(2, {
      announce(dir) {
        expect(existsSync(dir)).toBe(false);
        announced.push(dir);
        // Someone else takes the first name between the announcement and the mkdir.
        if (announced.length === 1) mkdirSync(dir);
      },
      disown: (dir) => disowned.push(dir),
    });
    try {
      expect(announced).toHaveLength(2);
      expect(disowned).toEqual([announced[0]]);
      expect(batch.dir).toBe(announced[1]);
      expect(existsSync(announced[0]!)).toBe(true);
      expect(statSync(batch.dir).mode & 0o777).toBe(0o700);
    } finally {
      rmdirSync(announced[0]!);
    }
  });
});
