import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openRunCgroup, primeCgroupMoves } from '../../src/teardown/run-cgroup.js';
import { BIN } from '../helpers/cli.js';

// The run's cgroup and the early move that makes entering it cheap (src/teardown/run-cgroup.ts). Only
// where safe-run can make a cgroup (root, or a delegated cgroup v2 subtree).
const ownCgroup = () => /^0::(\/.*)$/m.exec(fs.readFileSync('/proc/self/cgroup', 'utf8'))?.[1] ?? null;
const childCgroup = () =>
  /^0::(\/.*)$/m.exec(spawnSync('cat', ['/proc/self/cgroup'], { encoding: 'utf8' }).stdout)?.[1];
const hasCgroup = /0::\S*\/safe-run-/.test(
  spawnSync(process.execPath, [BIN, '-q', '--no-facts', '--', 'cat', '/proc/self/cgroup'], {
    encoding: 'utf8',
  }).stdout,
);
const claim = { announce: () => {}, disown: () => {} };

describe.skipIf(!hasCgroup)('the run cgroup', () => {
  it('starts a child inside, and safe-run is back in its own cgroup after', async () => {
    const home = ownCgroup();
    primeCgroupMoves();
    const cgroup = await openRunCgroup(`safe-run-test-${process.pid}-a`, claim);
    expect(cgroup).not.toBeNull();
    try {
      const inside = cgroup?.inside(childCgroup);
      expect(inside).toBe(`${home === '/' ? '' : home}/safe-run-test-${process.pid}-a`);
      expect(ownCgroup()).toBe(home);
    } finally {
      expect(cgroup?.release(false)).toBe(true);
    }
  });

  it('makes no early move while a run cgroup is open, nor just after a move', async () => {
    // An early move that landed while safe-run was inside would take it out before its spawn.
    const pause = () => new Promise((resolve) => setTimeout(resolve, 40));
    const name = `safe-run-test-${process.pid}-b`;
    const cgroup = await openRunCgroup(name, claim);
    expect(cgroup).not.toBeNull();
    const seen: (string | undefined)[] = [];
    const started: boolean[] = [];
    try {
      for (let round = 0; round < 3; round++) {
        await pause();
        started.push(primeCgroupMoves());
        seen.push(cgroup?.inside(childCgroup));
      }
    } finally {
      cgroup?.release(false);
    }
    expect(started).toEqual([false, false, false]);
    expect(seen.filter((where) => !where?.endsWith(`/${name}`))).toEqual([]);
    // Released, and moved a moment ago: still none. Later, one (and a second ask while it is under
    // way starts nothing).
    expect(primeCgroupMoves()).toBe(false);
    await pause();
    expect([primeCgroupMoves(), primeCgroupMoves()]).toEqual([true, false]);
    const next = await openRunCgroup(`${name}-2`, claim);
    next?.release(false);
  });

  it('opens a cgroup only once an early move under way has ended, and priming starts again after release', async () => {
    primeCgroupMoves();
    const first = await openRunCgroup(`safe-run-test-${process.pid}-c`, claim);
    expect(first?.inside(childCgroup)).toMatch(/\/safe-run-test-\d+-c$/);
    first?.release(false);
    // Released: a new early move may start, and the next cgroup waits for it.
    primeCgroupMoves();
    const second = await openRunCgroup(`safe-run-test-${process.pid}-d`, claim);
    try {
      expect(second?.inside(childCgroup)).toMatch(/\/safe-run-test-\d+-d$/);
    } finally {
      second?.release(false);
    }
  });
});

describe.skipIf(!hasCgroup)('stages of concurrent runs', () => {
  it('are each born in a cgroup of safe-run (background jobs beside foreground steps)', () => {
    const text = 'for i in 1 2 3 4 5 6 7 8; do cat /proc/self/cgroup & cat /proc/self/cgroup; done; wait';
    const result = spawnSync(process.execPath, [BIN, '-q', '--no-facts', '-c', text], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    const lines = result.stdout.split('\n').filter((line) => line.startsWith('0::'));
    expect(lines).toHaveLength(16);
    expect(lines.filter((line) => !/\/safe-run-[0-9a-f]+$/.test(line))).toEqual([]);
  });
});
