import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Report } from '../../src/types.js';
import { FIXTURES, runCli } from '../helpers/cli.js';
import { waitFor } from '../helpers/poll.js';

// The stage's process (after the exec, the leader of the stage's group) and a process that left the
// stage with setsid, given the stage's pid. Both keep SIGTERM blocked, so the signals wait, pending,
// where the kernel shows them: the escaped one, once its own SIGTERM is pending, says whether the
// stage's was already. Which trap would have run first is the scheduler's business, not safe-run's.
const FIXTURE = path.join(FIXTURES, 'signals', 'pending-term.pl');
const SCRIPT = 'setsid perl "$0" escaped "$1" $$ & exec perl "$0" group "$1"';

let dir = '';
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-order-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the order of a stop', () => {
  it('signals the stage groups first, then looks at the processes that left them, then signals those', async () => {
    let pid = -1;
    // The grace is long so that nothing is SIGKILLed: both processes end by themselves once they
    // have looked, however slow the machine.
    const args = ['--json', '--kill-after', '60s', '--', 'sh', '-c', SCRIPT, FIXTURE, dir];
    const done = runCli(args, { onStart: (p) => (pid = p) });
    const ready = (role: string) => fs.existsSync(path.join(dir, `${role}.ready`));
    await waitFor('the stage and the escaped process to be ready', () => ready('group') && ready('escaped'));
    process.kill(pid, 'SIGTERM');
    const result = await done;
    expect(result.code).toBe(143);
    // When the escaped process's SIGTERM arrived, the stage group's was there already.
    expect(fs.readFileSync(path.join(dir, 'escaped.checked'), 'utf8')).toBe('yes\n');
    const report = JSON.parse(result.stdout) as Report;
    // The stage's process got its SIGTERM and ended by itself, not by SIGKILL.
    expect(report.stages[0]).toMatchObject({ exitCode: 0, signal: null });
    // The escaped process was looked at before its signal: it was still there, waiting.
    const escaped = report.stages[0]!.stop!.snapshot.find((entry) => entry.command.includes(' escaped '));
    expect(escaped?.state).not.toBe('Z');
    expect(escaped?.explanation).not.toMatch(/^exited/);
  }, 60_000);
});
