import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { isAlive, killGroup, scratchDir, waitFor } from '../helpers/index.js';

// Nothing is killed that is not the run's own, even when a stage's process id is handed out again.
// Stage 1 exits at once; its pid is then given to an unrelated process in a session of its own (the
// kernel's next pid set through /proc/sys/kernel/ns_last_pid, which needs root); then the run ends,
// normally, by its time limit, or by a SIGKILL that leaves the watchdog to clean up. The stranger must
// live through each; stage 2, which is the run's own, must not.

const NEXT_PID = '/proc/sys/kernel/ns_last_pid';
const canPlace = (() => {
  try {
    fs.accessSync(NEXT_PID, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
})();

const scratch = scratchDir('pid-reuse-');
const strangers: ChildProcess[] = [];
afterEach(() => {
  for (const stranger of strangers.splice(0)) killGroup(stranger.pid);
});
afterAll(() => scratch.remove());

// A process in its own session with exactly this pid, or null when other forks on the machine kept
// taking it first.
function strangerAt(pid: number): ChildProcess | null {
  for (let attempt = 0; attempt < 50; attempt++) {
    fs.writeFileSync(NEXT_PID, String(pid - 1));
    const child = spawn('sleep', ['120'], { detached: true, stdio: 'ignore' });
    if (child.pid === pid) {
      strangers.push(child);
      return child;
    }
    killGroup(child.pid);
  }
  return null;
}

interface Placed {
  dir: string;
  safeRun: ChildProcess;
  stranger: ChildProcess;
  stage2: number;
  output: () => string;
}

// Starts `sh -c 'echo $$ > one' | sh -c 'echo $$ > two; ...wait for go...'` and puts a stranger at
// stage 1's pid once that is free.
async function placeStranger(extra: string[]): Promise<Placed | null> {
  const dir = scratch.fresh();
  const text = `sh -c 'echo $$ > one' | sh -c 'echo $$ > two; while [ ! -e go ]; do sleep 0.05; done; cat >/dev/null'`;
  const safeRun = spawn(process.execPath, [BIN, '--no-facts', ...extra, '-c', text], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  safeRun.stdout!.on('data', (chunk) => {
    printed += chunk;
  });
  safeRun.stderr!.on('data', (chunk) => {
    printed += chunk;
  });
  const read = (name: string) => Number(fs.readFileSync(path.join(dir, name), 'utf8'));
  await waitFor(
    'both stages to write their pids',
    () => fs.existsSync(path.join(dir, 'two')) && read('two') > 0,
  );
  const one = await waitFor('stage 1 to be written', () => read('one') > 0 && read('one'));
  await waitFor('stage 1 to be gone', () => !fs.existsSync(`/proc/${one}`));
  const stranger = strangerAt(one);
  if (!stranger) {
    safeRun.kill('SIGKILL');
    return null;
  }
  return { dir, safeRun, stranger, stage2: read('two'), output: () => printed };
}

function ended(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.on('close', () => resolve());
  });
}

describe.skipIf(!canPlace)('a stage pid handed out again to an unrelated process', () => {
  it('is not signalled when the run ends and sweeps what its stages left', async () => {
    const placed = await placeStranger([]);
    if (!placed) return;
    fs.writeFileSync(path.join(placed.dir, 'go'), '');
    await ended(placed.safeRun);
    expect(placed.safeRun.exitCode).toBe(0);
    expect(isAlive(placed.stranger.pid!)).toBe(true);
    expect(placed.output()).not.toMatch(/leftover/);
  });

  it('is not signalled when the time limit stops the run', async () => {
    const placed = await placeStranger(['--timeout', '4s', '--kill-after', '500ms']);
    if (!placed) return;
    await ended(placed.safeRun);
    expect(placed.safeRun.exitCode).toBe(124);
    expect(isAlive(placed.stranger.pid!)).toBe(true);
    expect(isAlive(placed.stage2)).toBe(false);
  });

  it('is not killed by the watchdog when safe-run is SIGKILLed', async () => {
    const placed = await placeStranger([]);
    if (!placed) return;
    placed.safeRun.kill('SIGKILL');
    await waitFor('the watchdog to kill stage 2', () => !isAlive(placed.stage2));
    expect(isAlive(placed.stranger.pid!)).toBe(true);
  });
});
