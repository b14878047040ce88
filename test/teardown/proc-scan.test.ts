import { spawn } from 'node:child_process';
import { closeSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { describeBlocked } from '../../src/teardown/proc-blocked.js';
import { listProcesses, readProcess } from '../../src/teardown/proc-read.js';
import { findByMarker, findProcesses, scanProcesses } from '../../src/teardown/proc-scan.js';
import { exited, killEverything, makePipe, newMarker, spawnStage, waitFor } from '../helpers/index.js';

let marker = newMarker();
const cleanups: (() => void)[] = [];

afterEach(async () => {
  await killEverything(marker);
  for (const cleanup of cleanups.splice(0)) cleanup();
  marker = newMarker();
});

describe('listProcesses', () => {
  it('describes a detached child with its own group and session, and its command line', async () => {
    const child = spawnStage(['sleep', '300'], marker);
    const info = await waitFor('the sleep to exec', () =>
      listProcesses().find((p) => p.pid === child.pid && p.command === 'sleep 300'),
    );
    expect(info).toMatchObject({ ppid: process.pid, pgid: child.pid, sid: child.pid });
    expect(info.state).toMatch(/^[RS]$/);
    expect(info.start).toBeGreaterThan(0);
  });

  it('falls back to the short name when a process has no command line', async () => {
    // A zombie keeps its stat but loses its argv: this sh exits while its parent never waits.
    const parent = spawnStage(['/bin/sh', '-c', 'sh -c "exit 0" & exec sleep 300'], marker);
    const zombie = await waitFor('a zombie child', () =>
      listProcesses().find((p) => p.ppid === parent.pid && p.state === 'Z'),
    );
    expect(zombie.command).toBe('sh');
  });

  it('keeps working while processes appear and vanish under it', async () => {
    const churn = spawnStage(['/bin/sh', '-c', 'while :; do /bin/true; done'], marker);
    await waitFor('the churn to start', () => readProcess(churn.pid!));
    // Enough scans that processes came and went during them, counted in processes created rather
    // than in a number of scans: on a loaded machine each scan is slower and races with more exits.
    const start = lastPid();
    let scans = 0;
    while (scans < 10 || createdSince(start) < 200) {
      for (const info of listProcesses()) {
        expect(Number.isInteger(info.pid) && Number.isInteger(info.pgid)).toBe(true);
      }
      expect(findByMarker(marker.name, marker.value).length).toBeGreaterThan(0);
      scans += 1;
    }
  });
});

// The pid the kernel handed out last (the last field of /proc/loadavg).
function lastPid(): number {
  return Number(readFileSync('/proc/loadavg', 'utf8').trim().split(' ').pop());
}

// Processes created since the kernel handed out `start`, across a wrap of the pid counter.
function createdSince(start: number): number {
  const max = Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8'));
  return (lastPid() - start + max) % max;
}

describe('findByMarker', () => {
  it('finds exactly the processes whose environment has NAME=value, not a longer value', async () => {
    const marked = spawnStage(['sleep', '300'], marker);
    const longer = { name: marker.name, value: `${marker.value}x` };
    const other = spawnStage(['sleep', '300'], longer);
    try {
      const found = await waitFor('the marked sleep', () => {
        const pids = findByMarker(marker.name, marker.value).map((p) => p.pid);
        return pids.length > 0 && pids;
      });
      expect(found).toEqual([marked.pid]);
    } finally {
      await killEverything(longer);
      await exited(other);
    }
  });

  it('finds the marker as the only entry and in the middle of the environment block', async () => {
    const only = spawnStage(['env', '-i', `${marker.name}=${marker.value}`, 'sleep', '300'], marker);
    const middle = spawnStage(['env', 'ZZZ_AFTER_THE_MARKER=1', 'sleep', '300'], marker);
    const found = await waitFor('both sleeps', () => {
      const pids = findByMarker(marker.name, marker.value)
        .filter((p) => p.command === 'sleep 300')
        .map((p) => p.pid);
      return pids.length === 2 && pids;
    });
    expect(found.sort()).toEqual([only.pid, middle.pid].sort());
  });

  it('leaves zombies out and never reports the scanning process', async () => {
    const parent = spawnStage(['/bin/sh', '-c', 'sh -c "exit 0" & exec sleep 300'], marker);
    await waitFor('the zombie child', () =>
      listProcesses().find((p) => p.ppid === parent.pid && p.state === 'Z'),
    );
    const found = findProcesses({ marker, pgids: [parent.pid!] });
    expect(found.map((p) => p.pid)).toEqual([parent.pid]);
    expect(found.some((p) => p.pid === process.pid)).toBe(false);
  });

  it('finds members of the given groups even when they carry no marker', async () => {
    const stage = spawnStage(['/bin/sh', '-c', 'env -u SAFE_RUN_ID sleep 300 & exec sleep 300'], marker);
    const unmarked = await waitFor('the unmarked child', () =>
      listProcesses().find((p) => p.ppid === stage.pid && p.command === 'sleep 300'),
    );
    expect(findByMarker(marker.name, marker.value).map((p) => p.pid)).not.toContain(unmarked.pid);
    expect(findProcesses({ marker, pgids: [stage.pid!] }).map((p) => p.pid)).toContain(unmarked.pid);
    process.kill(-stage.pid!, 'SIGKILL');
  });
});

describe('scanProcesses', () => {
  it('lists a user process with an empty environment as unsure, kernel threads never', async () => {
    const stage = spawnStage(['/bin/sh', '-c', 'env -i sleep 300 & exec sleep 300'], marker);
    const empty = await waitFor('the sleep without environment', () =>
      listProcesses().find((p) => p.ppid === stage.pid && p.command === 'sleep 300'),
    );
    const scan = scanProcesses({ marker });
    expect(scan.found.map((p) => p.pid)).toEqual([stage.pid]);
    expect(scan.unsure.map((p) => p.pid)).toContain(empty.pid);
    expect(scan.unsure.some((p) => p.ppid === 2 || p.pid === 2)).toBe(false);
    process.kill(empty.pid, 'SIGKILL');
  });

  it("does not wait for a stranger's child caught without environment, only for one that left its parent's session", async () => {
    // A stranger (no marker) whose child reads an empty environment, as a child of a pid churn loop
    // does for a moment in its exec; and one whose child also called setsid, as an orphan of the run
    // adopted by a subreaper would have.
    const { [marker.name]: _, ...strangerEnv } = process.env;
    const start = (script: string) => {
      const child = spawn('/bin/sh', ['-c', script], { detached: true, stdio: 'ignore', env: strangerEnv });
      cleanups.push(() => process.kill(-child.pid!, 'SIGKILL'));
      return child;
    };
    const own = start('env -i sleep 301 & exec sleep 300');
    const left = start('env -i setsid sleep 302 & exec sleep 300');
    const child = (parent: number, command: string) =>
      waitFor(command, () => listProcesses().find((p) => p.ppid === parent && p.command === command));
    const ownChild = await child(own.pid!, 'sleep 301');
    const leftChild = await child(left.pid!, 'sleep 302');
    const unsure = scanProcesses({ marker }).unsure.map((p) => p.pid);
    expect(unsure).not.toContain(ownChild.pid);
    expect(unsure).toContain(leftChild.pid);
    process.kill(leftChild.pid, 'SIGKILL');
  });
});

describe('describeBlocked', () => {
  it('shows a writer stuck on a full pipe: sleeping in the pipe write, in write(2) on fd 1', async () => {
    const { reader, writer } = makePipe();
    cleanups.push(() => closeSync(reader));
    const yes = spawnStage(['yes'], marker, { stdio: ['ignore', writer, 'ignore'] });
    closeSync(writer);
    // A look reads stat, then wchan, then syscall: one taken while yes fills the pipe can read R in
    // stat and pipe_write in wchan (failed once on a busy machine). Once the pipe is full, nothing
    // wakes it, and a look reads it asleep in the write throughout.
    const blocked = await waitFor('yes to block', () => {
      const info = describeBlocked(yes.pid!);
      return info?.state === 'S' && info.wchan?.includes('pipe_write') && info;
    });
    expect(blocked.syscall).toMatchObject({ args: expect.arrayContaining(['0x1']) });
    if (process.arch === 'x64') expect(blocked.syscall).toMatchObject({ nr: 1, name: 'write' });
  });

  it('returns null for a process that is gone', async () => {
    const child = spawnStage(['/bin/true'], marker);
    await exited(child);
    expect(describeBlocked(child.pid!)).toBeNull();
  });
});
