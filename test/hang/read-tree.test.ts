import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/cli.js';
import { findBlocked, lookAt, treeStarter, waitForPid, wchanOf, yesBlockedOnSleep } from './helpers.js';

const start = treeStarter();

describe('reading a real hung tree from /proc', () => {
  it('finds yes blocked writing to the pipe that sleep never reads', async () => {
    const root = start('sh', ['-c', 'yes | sleep 100']);
    const yes = await yesBlockedOnSleep(root, 15_000);
    const report = lookAt(root);
    const sleep = report.processes.find((entry) => entry.command === 'sleep 100')!;
    const entry = report.processes.find((entry) => entry.pid === yes)!;
    expect(entry.blocked).toMatchObject({ op: 'write', fd: 1 });
    expect(entry.blocked?.target).toMatch(/^pipe:\[\d+\]$/);
    expect(entry.peers).toEqual([
      { pid: sleep.pid, command: 'sleep 100', fds: [0], reading: false, safeRun: false },
    ]);
    expect(entry.explanation).toBe(
      `blocked writing to stdout, a pipe whose only reader, pid ${sleep.pid} \`sleep 100\`, never reads it`,
    );
    expect(report.deadlock).toBeNull();
  });

  it('finds the seed-003 deadlock between a Node parent and its child', async () => {
    const root = start(process.execPath, [path.join(FIXTURES, 'hang', 'seed-003.mjs')]);
    const child = await waitForPid(
      () => (/epoll/.test(wchanOf(root)) ? findBlocked(root, /seed-003\.mjs child/, /pipe_write/) : null),
      20_000,
      'parent and child to block',
    );
    const report = lookAt(root);
    expect(report.deadlock?.pids).toEqual([root, child]);
    expect(report.deadlock?.explanation).toBe(
      `pid ${root} waits for child ${child} to exit; ${child} is blocked writing to stderr, a pipe only ${root} can read`,
    );
    const writer = report.processes.find((entry) => entry.pid === child)!;
    expect(writer.blocked?.target).toMatch(/^fifo:\[\d+\] .*\(deleted\)$/);
    expect(writer.peers?.map((peer) => [peer.pid, peer.reading])).toEqual([[root, false]]);
  });
});
