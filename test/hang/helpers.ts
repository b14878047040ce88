import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { afterEach } from 'vitest';
import type { HangReport } from '../../src/hang/hang-report.js';
import { findTree, readTree } from '../../src/hang/read-tree.js';
import { settledReport } from '../../src/hang/settle.js';

// One look at the tree under `root`, as `safe-run inspect` takes it: a deadlock it claims is
// confirmed by a second reading.
export function lookAt(root: number): HangReport {
  return settledReport(readTree(new Map(findTree(root).map((pid) => [pid, null])), null)).report;
}

// Small /proc readers for the tests' own polling (what the code under test reads is asserted on).
export function wchanOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/wchan`, 'utf8').trim();
  } catch {
    return '';
  }
}

export function commandOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

function parentOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return -1;
  }
}

// Every living descendant of `root`, root left out.
export function descendants(root: number): number[] {
  const all = fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const pid of all) {
      if (parentOf(pid) === parent && !found.includes(pid)) {
        found.push(pid);
        queue.push(pid);
      }
    }
  }
  return found;
}

// The descendant of `root` whose command line matches and whose wait channel matches, if any.
export function findBlocked(root: number, command: RegExp, wchan: RegExp): number | null {
  return descendants(root).find((pid) => command.test(commandOf(pid)) && wchan.test(wchanOf(pid))) ?? null;
}

export function killAll(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

// A function that starts `command` in the background (no stdio) and returns its pid; every tree it
// started is killed after each test of the file that made it.
export function treeStarter(): (command: string, args: string[]) => number {
  const started: ChildProcess[] = [];
  afterEach(() => {
    for (const child of started.splice(0)) killAll([...descendants(child.pid!), child.pid!]);
  });
  return (command, args) => {
    const child = spawn(command, args, { stdio: 'ignore' });
    started.push(child);
    return child.pid!;
  };
}

// Polls `find` until it names a process (or the deadline passes) and returns that pid.
export async function waitForPid(
  find: () => number | null,
  deadlineMs: number,
  what: string,
): Promise<number> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const pid = find();
    if (pid !== null) return pid;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

// `sh -c 'yes | sleep 100'` hung as the tests want it: yes blocked on the full pipe, and sleep started.
// The pipe can fill before sh's second child has exec'd sleep (under load it is still a copy of sh).
// Returns yes's pid.
export async function yesBlockedOnSleep(root: number, deadlineMs: number): Promise<number> {
  const yes = await waitForPid(
    () => findBlocked(root, /^yes$/, /pipe_write/),
    deadlineMs,
    'yes to fill the pipe',
  );
  await waitForPid(
    () => descendants(root).find((pid) => commandOf(pid) === 'sleep 100') ?? null,
    deadlineMs,
    'sleep to start',
  );
  return yes;
}
