import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runJson } from '../helpers/cli.js';

const SEED = path.join(FIXTURES, 'hang', 'socket-seed.mjs');

describe('--on-deadlock stop', () => {
  it('stops the run once a look sees the deadlock, with the deadlock as the reason, long before the time limit', async () => {
    const { result, report } = await runJson(
      ['--on-deadlock', 'stop', '--timeout', '10m', '--', 'node', SEED],
      {
        deadlineMs: 120_000,
      },
    );
    expect(result.code).toBe(124);
    const stop = report.stages[0]!.stop!;
    expect(stop.reason).toBe('--on-deadlock stop: its processes were deadlocked');
    expect(stop.deadlock?.kind).toBe('unread-output');
    expect(report.next).toMatch(/while deadlocked: .*must read that pipe while it waits/);
  }, 150_000);

  it('is the default in CI with the heartbeat on, and can be turned off there', async () => {
    const ci = { CI: 'true', GITHUB_ACTIONS: undefined, GITLAB_CI: undefined };
    const on = await runJson(['--', 'true'], { env: ci });
    expect(on.report.settings.onDeadlock).toBe('stop');
    const quiet = await runJson(['--heartbeat', 'off', '--', 'true'], { env: ci });
    expect(quiet.report.settings.onDeadlock).toBe('wait');
    const told = await runJson(['--on-deadlock', 'wait', '--', 'true'], { env: ci });
    expect(told.report.settings.onDeadlock).toBe('wait');
    const outside = await runJson(['--', 'true'], { env: { CI: undefined } });
    expect(outside.report.settings.onDeadlock).toBe('wait');
  }, 120_000);
});
