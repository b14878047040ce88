import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Marker } from '../../src/teardown/marker.js';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/teardown');

export function fixture(name: string): string {
  return join(FIXTURES, name);
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

export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

// Polls until `probe` returns something truthy, and returns that; fails with `what` at the deadline.
export async function waitFor<T>(what: string, probe: () => T, timeoutMs = 20_000): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
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
