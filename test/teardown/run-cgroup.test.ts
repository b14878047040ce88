import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { planFromArgv, run } from '../../src/index.js';
import { cgroupToPrime, openRunCgroup } from '../../src/teardown/run-cgroup.js';
import { Warden } from '../../src/teardown/watchdog.js';
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
  it('starts a child inside, and safe-run is back in its own cgroup after', () => {
    const home = ownCgroup();
    const cgroup = openRunCgroup(`safe-run-test-${process.pid}-a`, claim);
    expect(cgroup).not.toBeNull();
    try {
      const inside = cgroup?.inside(childCgroup);
      expect(inside).toBe(`${home === '/' ? '' : home}/safe-run-test-${process.pid}-a`);
      expect(ownCgroup()).toBe(home);
    } finally {
      expect(cgroup?.release(false)).toBe(true);
    }
  });

  it('asks for the early move only when safe-run has not moved for a moment', async () => {
    const cgroup = openRunCgroup(`safe-run-test-${process.pid}-b`, claim);
    try {
      cgroup?.inside(childCgroup);
      expect(cgroupToPrime()).toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 40));
      // safe-run's own cgroup, where the run's is made.
      expect(path.resolve(cgroupToPrime() ?? '')).toBe(path.dirname(cgroup?.dir ?? ''));
    } finally {
      cgroup?.release(false);
    }
  });
});

describe.skipIf(!hasCgroup)('the early move', () => {
  it('is made by the watchdog, which stays where it was and goes on answering, whatever the path', async () => {
    const warden = new Warden();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-prime-'));
    try {
      const home = ownCgroup();
      warden.primeCgroup(cgroupToPrime() ?? '');
      warden.primeCgroup('/nonexistent/cgroup');
      warden.claimDir(dir);
      expect(await warden.makeFifos(dir, 1)).toBe(true);
      expect(fs.statSync(path.join(dir, 'p0')).isFIFO()).toBe(true);
      const watchdogCgroup = /^0::(\/.*)$/m.exec(fs.readFileSync(`/proc/${warden.pid}/cgroup`, 'utf8'))?.[1];
      expect(watchdogCgroup).toBe(home);
    } finally {
      warden.forgetDir(dir);
      warden.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!hasCgroup)('a run of the library', () => {
  it('starts while every thread of libuv pool waits in a FIFO open that its stage ends', async () => {
    // The caller holds libuv's 4 threads in reads of FIFOs that the run's stage writes. An early move
    // made on the pool (as before the watchdog made it) waited behind them, and the run never started.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-pool-held-'));
    try {
      const fifos = ['f1', 'f2', 'f3', 'f4'].map((name) => path.join(dir, name));
      spawnSync('mkfifo', fifos);
      const reads = fifos.map((fifo) => fs.promises.readFile(fifo, 'utf8'));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const script = `for f in ${fifos.join(' ')}; do echo x > $f; done`;
      const report = await run(planFromArgv(['sh', '-c', script], { facts: null, timeoutMs: 20_000 }));
      expect(report.exitCode).toBe(0);
      expect(await Promise.all(reads)).toEqual(['x\n', 'x\n', 'x\n', 'x\n']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
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
