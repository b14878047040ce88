import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, isAlive, runJson, waitFor } from '../helpers/index.js';

const STAGE = path.join(import.meta.dirname, '..', 'fixtures', 'teardown', 'kill-my-watchdog.sh');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-watchdog-killed-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

// The watchdogs safe-run `pid` has now: its children whose argv[0] is safe-run-watchdog.
function watchdogsOf(pid: number): number[] {
  return fs.readdirSync('/proc').flatMap((name) => {
    if (!/^\d+$/.test(name)) return [];
    try {
      const status = fs.readFileSync(`/proc/${name}/status`, 'utf8');
      const argv0 = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0')[0];
      return argv0 === 'safe-run-watchdog' && status.includes(`\nPPid:\t${pid}\n`) ? [Number(name)] : [];
    } catch {
      return [];
    }
  });
}

describe('a stage that kills the watchdog', () => {
  it('is told in the report, and the watchdog is restarted', async () => {
    const note = path.join(scratch, 'report-run');
    const { report } = await runJson(['--', STAGE, note, '0.2'], { deadlineMs: 60_000 });
    const killed = fs.readFileSync(note, 'utf8').trim();
    expect(killed).toMatch(/^\d+$/);
    expect(report.warnings).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^the watchdog \\(pid ${killed}\\) was killed by SIGKILL while the run went on .*; restarted as pid \\d+$`,
        ),
      ),
    );
  });

  it('still cannot outlive safe-run: after SIGKILL of safe-run the restarted watchdog kills the stage', async () => {
    const note = path.join(scratch, 'sigkill-run');
    const child = spawn(process.execPath, [BIN, '--no-facts', '--', STAGE, note, '300'], { stdio: 'ignore' });
    const done = new Promise((resolve) => child.on('close', resolve));
    const deadline = 30_000;
    const found: { stage?: number } = {};
    try {
      await sigkillAfterRestart(child, note, deadline, found);
    } finally {
      // Whatever failed, nothing of this test is left running.
      child.kill('SIGKILL');
      if (found.stage !== undefined && isAlive(found.stage)) process.kill(found.stage, 'SIGKILL');
    }
    await done;
  });
});

// Waits for the stage to kill the watchdog and for the new one, checks what the new one knows,
// SIGKILLs safe-run and waits for the stage to be killed by the new watchdog. The stage's pid goes in
// `found` as soon as it is known.
async function sigkillAfterRestart(
  child: ChildProcess,
  note: string,
  deadline: number,
  found: { stage?: number },
): Promise<void> {
  await waitFor('the stage to kill the watchdog', () => fs.existsSync(note), deadline);
  const killed = Number(fs.readFileSync(note, 'utf8').trim());
  let fresh: number | undefined;
  await waitFor(
    'a new watchdog',
    () => {
      fresh = watchdogsOf(child.pid!).find((pid) => pid !== killed);
      return fresh !== undefined;
    },
    deadline,
  );
  // The stage is the sleep the fixture exec's into right after writing the note: safe-run's other
  // child (polled: on a busy machine the exec can come after the new watchdog is seen).
  let stage: number | undefined;
  await waitFor(
    'the stage to exec sleep',
    () => {
      stage = sleepChildOf(child.pid!);
      return stage !== undefined;
    },
    deadline,
  );
  found.stage = stage;
  // It knew the stage's group and the run's marker from its first instruction (in its arguments):
  // written to its stdin after spawn() returned, a SIGKILL of safe-run between its exec and that
  // write left the stage running, reparented to pid 1 (found once in an under-load run).
  const argv = fs.readFileSync(`/proc/${fresh}/cmdline`, 'utf8').split('\0');
  expect(argv).toContainEqual(expect.stringMatching(new RegExp(`^g ${stage}:\\d+$`)));
  expect(argv).toContainEqual(expect.stringMatching(/^m \w+=[\w.-]+$/));
  child.kill('SIGKILL');
  await waitFor('the stage to be killed by the restarted watchdog', () => !isAlive(stage!), deadline);
}

function sleepChildOf(parent: number): number | undefined {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .find((pid) => {
      try {
        return (
          fs.readFileSync(`/proc/${pid}/status`, 'utf8').includes(`\nPPid:\t${parent}\n`) &&
          fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('sleep\0')
        );
      } catch {
        return false;
      }
    });
}
