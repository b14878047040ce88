import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { OwnGroups } from '../../src/teardown/own-groups.js';
import type { ProcWindow } from '../../src/teardown/proc-window.js';
import { isAlive } from '../helpers/index.js';

// A stage's leader is gone; a process it started lives on in the stage's session but in a group of its
// own, its environment cleared (bash's `set -m; env -i CMD &`): only its session id ties it to the run.
// Under load the run's window on ns_last_pid can close (a sample came too late to rule out a turn of
// the pid space), and without a marker the session was then forgotten and the process survived the
// run (3 of 30 runs under ../shared/tools/under-load, no cgroup). That the member started before the
// leader was reaped proves the session the run's own: until then the zombie held the number.
const closedWindow: ProcWindow = { startTicks: 0, candidates: () => null, intact: () => false, close() {} };

const members: number[] = [];
afterEach(() => {
  for (const pid of members.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

describe('a leaderless stage session, the window closed, no marker', () => {
  it('stays the run’s own when a member started before the leader was reaped, and only then', async () => {
    // The leader outlives its member's start by 0.2 s: 20 ticks of the start-time clock.
    const leader = spawn('bash', ['-c', 'set -m; env -i sleep 60 & echo $!; sleep 0.2'], {
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const told = new OwnGroups(null, closedWindow);
    const untold = new OwnGroups(null, closedWindow);
    told.add(leader.pid!);
    untold.add(leader.pid!);
    let out = '';
    leader.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const reaped = new Promise<void>((resolve) =>
      leader.on('exit', () => {
        told.leaderReaped(leader.pid!);
        resolve();
      }),
    );
    await reaped;
    const member = Number(out.trim());
    members.push(member);
    expect(isAlive(member)).toBe(true);
    expect(told.live()).toEqual([leader.pid]);
    expect(told.owned(leader.pid!)).toBe(true);
    // Without the leader's reaping on record nothing proves the id ours: it is left alone.
    expect(untold.live()).toEqual([]);
    told.close();
    untold.close();
  });
});
