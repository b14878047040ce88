import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { LeftoverLog } from '../../src/teardown/leftover-log.js';
import { readProcess } from '../../src/teardown/proc-read.js';
import { exited, isAlive, killEverything, newMarker, spawnStage, waitFor } from '../helpers/index.js';

let marker = newMarker();

function childrenOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean);
  } catch {
    return [];
  }
}

afterEach(async () => {
  await killEverything(marker);
  marker = newMarker();
});

describe('the leftovers log', () => {
  it('calls a signalled process killed only once it is seen gone', async () => {
    // SIGTERM is ignored: the signal was sent, the process is still there.
    const stage = spawnStage(['/bin/sh', '-c', "trap '' TERM; while :; do sleep 1; done"], marker);
    const info = await waitFor('the stage to be listed', () => readProcess(stage.pid!));
    // Listed may still mean before the trap: its first sleep starts after it.
    await waitFor('the trap to be set', () => childrenOf(stage.pid!).length > 0);
    process.kill(stage.pid!, 'SIGTERM');
    const log = new LeftoverLog();
    log.signalled(info, 'sh', 'outlived its stage; sent SIGTERM');
    expect(log.list()).toEqual([
      {
        pid: stage.pid,
        command: info.command,
        stage: 'sh',
        how: 'outlived its stage; sent SIGTERM; still running when safe-run ended',
        action: 'kept',
      },
    ]);
    process.kill(-stage.pid!, 'SIGKILL');
    await exited(stage);
    await waitFor('the stage to be gone', () => !isAlive(stage.pid!));
    expect(log.list()).toMatchObject([
      { pid: stage.pid, action: 'killed', how: 'outlived its stage; sent SIGTERM' },
    ]);
  });

  it('keeps one entry per process and adds to what is said about it', async () => {
    const stage = spawnStage(['/bin/sh', '-c', 'exec sleep 300'], marker);
    const info = await waitFor('the stage to be listed', () => readProcess(stage.pid!));
    const log = new LeftoverLog();
    log.kept(info, 'sleep', 'outlived its stage');
    log.kept(info, 'sleep', 'a second report of the same process');
    log.tell(info, 'sleep', 'held a pipe');
    expect(log.list()).toEqual([
      {
        pid: stage.pid,
        command: info.command,
        stage: 'sleep',
        how: 'outlived its stage; held a pipe',
        action: 'kept',
      },
    ]);
  });
});
