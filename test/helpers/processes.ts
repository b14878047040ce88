import { type ChildProcess, type SpawnOptions, spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Marker } from '../../src/teardown/marker.js';
import { OwnGroups } from '../../src/teardown/own-groups.js';
import { waitFor } from './poll.js';

export const TEARDOWN_FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/teardown');

export function teardownFixture(name: string): string {
  return join(TEARDOWN_FIXTURES, name);
}

let counter = 0;

// Each test gets its own marker so that cleanup touches only what that test started.
export function newMarker(): Marker {
  counter += 1;
  return { name: 'SAFE_RUN_ID', value: `test-${process.pid}-${counter}-${Date.now().toString(36)}` };
}

// Starts a process the way the engine starts a stage: its own session and group, the marker in its
// environment.
export function spawnStage(argv: string[], marker: Marker, options: SpawnOptions = {}): ChildProcess {
  const [program, ...args] = argv;
  const child = spawn(program!, args, {
    detached: true,
    stdio: 'ignore',
    ...options,
    env: { ...process.env, [marker.name]: marker.value },
  });
  child.on('error', () => {});
  return child;
}

export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

function stateOf(pid: number | string): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return null;
  }
}

// Alive: present and not a zombie (a zombie is already dead, only not reaped).
export function isAlive(pid: number): boolean {
  const state = stateOf(pid);
  return state !== null && state !== 'Z' && state !== 'X';
}

// Live processes whose command line is `command` followed by arguments. Tests that use it make the
// command unique to their run, since other runs of the suite may share the machine.
export function aliveByCommand(command: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmdline.startsWith(`${command} `) && isAlive(Number(entry))) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

// A real pipe without a native addon, as the engine makes them: a FIFO opened from both sides in a
// private directory, then unlinked. The caller closes both ends.
export function makePipe(): { reader: number; writer: number } {
  const dir = mkdtempSync(join(tmpdir(), 'safe-run-test-'));
  const path = join(dir, 'fifo');
  spawnSync('mkfifo', ['-m', '600', path]);
  const both = openSync(path, 'r+');
  const reader = openSync(path, 'r');
  const writer = openSync(path, 'w');
  closeSync(both);
  unlinkSync(path);
  rmSync(dir, { recursive: true });
  return { reader, writer };
}

// Independent of the code under test on purpose: cleanup must work even when that code is broken.
function markedPids(marker: Marker): number[] {
  const entry = Buffer.from(`${marker.name}=${marker.value}\0`);
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${name}/environ`);
      const at = environ.indexOf(entry);
      if ((at === 0 || (at > 0 && environ[at - 1] === 0)) && isAlive(Number(name))) pids.push(Number(name));
    } catch {
      // gone, or not ours
    }
  }
  return pids;
}

// SIGKILLs every process carrying the marker, plus unmarked helpers (the watchdog), until three scans
// in a row find none: a process caught mid-exec reads an empty environment for a moment.
export async function killEverything(marker: Marker, extra: number[] = []): Promise<void> {
  for (const pid of extra) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('safe-run-watchdog'))
        process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  let quiet = 0;
  await waitFor(`processes marked ${marker.value} to be gone`, () => {
    const left = markedPids(marker);
    quiet = left.length === 0 ? quiet + 1 : 0;
    for (const pid of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // exited meanwhile
      }
    }
    return quiet >= 3;
  });
}

// The run's own stage groups, as the engine keeps them: each id checked before every signal.
export function ownGroups(marker: Marker | null, ...pids: (number | undefined)[]): OwnGroups {
  const groups = new OwnGroups(marker);
  for (const pid of pids) if (pid !== undefined) groups.add(pid);
  return groups;
}

// A fixture's whole group, killed by the test that started it.
export function killGroup(pgid: number | undefined): void {
  try {
    if (pgid !== undefined && pgid > 1) process.kill(-pgid, 'SIGKILL');
  } catch {
    // already gone
  }
}
