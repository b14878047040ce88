import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/types.js';
import { runCli } from '../helpers/cli.js';

// A redirection to or from a FIFO nobody opens the other end of waits, under bash in the stage's own
// open, where the time limit or a signal ends it. safe-run opens redirections before it spawns the
// stage: that wait once ignored --timeout and SIGTERM, and only SIGKILL ended safe-run.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifo-redirect-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8' };

function fifo(name: string): string {
  const file = path.join(dir, name);
  execFileSync('mkfifo', [file]);
  return file;
}

describe('a redirection to a FIFO', () => {
  it.each([
    ['cat < FIFO', 'in'],
    ['echo x > FIFO', 'out'],
  ])('with nobody at its other end ends with the time limit: %j', async (text, name) => {
    const file = fifo(name);
    const result = await runCli(
      ['--no-facts', '--json', '--timeout', '1s', '-c', text.replace('FIFO', file)],
      {
        env,
      },
    );
    expect(result.code).toBe(124);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.stages[0]!.status).toBe('timeout');
    expect(report.stages[0]!.stop?.reason).toMatch(/while a redirection waited for the other end of a FIFO$/);
  });

  it('with a writer reads what it writes', async () => {
    const file = fifo('written');
    const writer = spawn('sh', ['-c', 'printf hello > "$0"', file], { stdio: 'ignore' });
    const result = await runCli(['--no-facts', '-q', '--timeout', '20s', '-c', `cat < ${file}`], { env });
    await new Promise((resolve) => (writer.exitCode === null ? writer.once('exit', resolve) : resolve(null)));
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('hello');
  });
});
