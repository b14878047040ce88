import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/types.js';
import { BIN, FIXTURES, runJson } from '../helpers/cli.js';
import { waitFor } from '../helpers/poll.js';

const SEED = path.join(FIXTURES, 'hang', 'socket-seed.mjs');
const LATE_SEED = path.join(FIXTURES, 'hang', 'late-seed.mjs');

// "running for 2.48s" / "running for 335ms" in a heartbeat line: the stage's age at that look, as
// printed: rounded to 1 ms, 10 ms (under 10 s) or 100 ms, so the age was within `error` of it.
function ageOf(line: string): number {
  return printedAge(line).ms;
}

function printedAge(line: string): { ms: number; error: number } {
  const [, amount, unit] = /running for ([\d.]+)(ms|s)\b/.exec(line) ?? [];
  if (amount === undefined) throw new Error(`no age in heartbeat line: ${line}`);
  const ms = Number(amount) * (unit === 's' ? 1000 : 1);
  const decimals = amount.split('.')[1]?.length ?? 0;
  return { ms, error: unit === 's' ? 500 / 10 ** decimals : 0.5 };
}

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

  it('stops at the heartbeat that saw the deadlock, not at a later look', async () => {
    // The run's own looks come at 1, 2, 4, 8 and 16 s of silence; the heartbeat every second. The
    // deadlock is let form once a heartbeat says the stage is 10 s old: after the 8 s look, so the
    // first look to see it is a heartbeat, with the run's next own look some 6 s away.
    const go = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sr-deadlock-')), 'go');
    const args = ['--json', '--on-deadlock', 'stop', '--heartbeat', '1s', '--timeout', '10m'];
    const child = spawn(process.execPath, [BIN, ...args, '--', 'node', LATE_SEED, go], {
      env: { ...process.env, NO_COLOR: '1', CI: undefined },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    const code = new Promise<number | null>((resolve) => child.on('close', resolve));
    const beats = () => err.split('\n').filter((line) => line.startsWith('safe-run: heartbeat: '));
    await waitFor('a heartbeat at 10 s', () => beats().some((line) => ageOf(line) >= 10_000), 60_000);
    fs.writeFileSync(go, '');
    expect(await code).toBe(124);
    const report = JSON.parse(out) as Report;
    const stage = report.stages[0]!;
    expect(stage.stop?.reason).toBe('--on-deadlock stop: its processes were deadlocked');
    const lines = beats();
    const seen = lines.findIndex((line) => /: deadlock: /.test(line));
    expect(seen, err).toBeGreaterThanOrEqual(0);
    // When the stop came, as the stage's age. The report's afterMs counts from the run's clock,
    // which starts before the stage (by at most the gap between the run's and the stage's
    // startedAt, to the millisecond).
    const head = Date.parse(stage.startedAt!) - Date.parse(report.startedAt) + 2;
    const stopAge = { earliest: stage.stop!.afterMs - head, latest: stage.stop!.afterMs };
    // The look that saw it came before the stop, and every later heartbeat after the stop: no other
    // look came between (a heartbeat that saw it and did not stop would be followed by more heartbeats
    // saying so, every second, until the run's own look at 16 s).
    // (A printed age is rounded: 11.8s was 11,795 ms once, the stop's latest bound.)
    const saw = printedAge(lines[seen]!);
    expect(saw.ms - saw.error).toBeLessThanOrEqual(stopAge.latest);
    for (const later of lines.slice(seen + 1)) {
      const age = printedAge(later);
      expect(age.ms + age.error, err).toBeGreaterThanOrEqual(stopAge.earliest);
    }
  }, 120_000);
});
