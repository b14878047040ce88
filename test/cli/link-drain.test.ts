import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { runJson } from '../helpers/cli.js';

// Processes whose command line is exactly `command` and that are not zombies.
function running(command: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (cmdline === command && stat[stat.lastIndexOf(')') + 2] !== 'Z') found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

const started: string[] = [];
afterEach(() => {
  for (const command of started.splice(0)) for (const pid of running(command)) process.kill(pid, 'SIGKILL');
});

// A holder sleeps this long: far past the test's own deadline, so a run that waited for it fails.
function holder(): string {
  const command = `sleep ${3000 + Math.floor(Math.random() * 1000)}`;
  started.push(command);
  return command;
}

describe('--drain-timeout on the pipe between two stages', () => {
  it('stops a background child that keeps the next stage from seeing EOF, and delivers the output', async () => {
    const sleep = holder();
    const { result, report } = await runJson(
      ['--drain-timeout', '500ms', '-c', `sh -c '${sleep} 2>/dev/null & echo hi' | cat`],
      { deadlineMs: 60_000 },
    );
    expect(result.code).toBe(0);
    expect(report.stages.map((stage) => stage.status)).toEqual(['ok', 'ok']);
    expect(report.stages[1]!.stdout.text).toBe('hi\n');
    expect(report.leftovers).toMatchObject([
      {
        command: sleep,
        stage: 'sh',
        action: 'killed',
        how: expect.stringContaining('the pipe to stage 2 "cat"'),
      },
    ]);
    expect(report.warnings.join('\n')).toContain(`held by ${report.leftovers[0]!.pid} (${sleep})`);
    expect(running(sleep)).toEqual([]);
  });

  it('finds a holder without the marker (env -i, setsid) by the pipe it holds', async () => {
    const sleep = holder();
    const { result, report } = await runJson(
      ['--drain-timeout', '500ms', '-c', `sh -c 'env -i setsid ${sleep} 2>/dev/null & echo hi' | cat`],
      { deadlineMs: 60_000 },
    );
    expect(result.code).toBe(0);
    expect(report.stages[1]!.stdout.text).toBe('hi\n');
    expect(report.leftovers).toMatchObject([{ command: sleep, action: 'killed' }]);
    expect(running(sleep)).toEqual([]);
  });

  it('leaves a next stage that is still working alone when nobody else holds the pipe', async () => {
    const { result, report } = await runJson(
      ['--drain-timeout', '100ms', '-c', 'echo hi | sh -c "sleep 1; cat"'],
      {
        deadlineMs: 60_000,
      },
    );
    expect(result.code).toBe(0);
    expect(report.stages[1]!.stdout.text).toBe('hi\n');
    expect(report.leftovers).toEqual([]);
    expect(report.warnings).toEqual([]);
  });
});
