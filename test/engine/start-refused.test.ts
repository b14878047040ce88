import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/engine/run-pipeline.js';
import { pipelinePlan } from '../helpers/index.js';

// A single argument longer than the kernel's per-string limit (128 KiB on Linux): execve says E2BIG.
const HUGE = 'x'.repeat(3 * 1024 * 1024);

function running(command: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
        const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
        return cmdline === command && stat[stat.lastIndexOf(')') + 2] !== 'Z';
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('a stage the kernel refuses after earlier stages started', () => {
  it('stops the stages that started, skips those after it, and says so', async () => {
    const sleep = `sleep ${4000 + Math.floor(Math.random() * 1000)}`;
    const plan = pipelinePlan(`${sleep} | cat | wc -c`, { facts: null, killAfterMs: 5000 });
    plan.stages[1]!.argv.push(HUGE);
    const report = await run(plan);
    expect(report.stages.map((stage) => stage.status)).toEqual(['cancelled', 'not-started', 'skipped']);
    expect(report.stages[1]!.error).toMatchObject({ code: 'E2BIG', during: 'start', exitCode: 126 });
    expect(report.stages[0]!.stop?.reason).toBe('stage 2 "cat" could not be started (E2BIG)');
    expect(report.stages[0]!.stop?.signals).toEqual(['SIGTERM']);
    expect(report.exitCode).toBe(126);
    expect(report.verdict.reason).toBe(
      'stage 2 "cat" could not be started (E2BIG): the kernel refused it after stage 1 had started; safe-run stopped it',
    );
    expect(report.stages[2]!.pid).toBeNull();
    expect(running(sleep)).toEqual([]);
  }, 60_000);

  it('says that nothing else started when the first stage is refused', async () => {
    const plan = pipelinePlan('echo | cat', { facts: null });
    plan.stages[0]!.argv.push(HUGE);
    const report = await run(plan);
    expect(report.stages.map((stage) => stage.status)).toEqual(['not-started', 'skipped']);
    expect(report.exitCode).toBe(126);
    expect(report.verdict.reason).toBe(
      'stage 1 "echo" could not be started (E2BIG): the kernel refused it; nothing else was started',
    );
  });
});
