import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, runJson } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';

// bash's message for a -c stage that cannot start goes to the stage's stderr, which is often the
// pipe only safe-run's own event loop reads: a message longer than the pipe holds (64 KiB) must not
// wait for that reader for ever (it was a synchronous write that no signal could interrupt).

const scratch = scratchDir('long-messages-');
afterAll(() => scratch.remove());
const name = 'x'.repeat(66_000);

describe('a message longer than a pipe holds', () => {
  it('about a command that is not found ends the run, with the message captured', async () => {
    const { result, report } = await runJson(['--timeout', '20s', '-c', name], {
      cwd: scratch.fresh(),
      deadlineMs: 60_000,
    });
    expect(result.code).toBe(127);
    expect(report.stages[0]!.status).toBe('not-started');
    expect(report.stages[0]!.stderr.bytes).toBe(`bash: line 1: ${name}: command not found\n`.length);
  });

  it('about a redirection that fails ends the run, and the steps after it run', async () => {
    const dir = scratch.fresh();
    const target = `${'d'.repeat(300)}/${'f'.repeat(70_000)}`;
    const result = await runCli(['--no-facts', '-q', '-c', `echo hi > ${target}; echo after`], {
      cwd: dir,
      deadlineMs: 60_000,
    });
    expect(result.stdout).toBe('after\n');
    expect(result.code).toBe(0);
  });

  it('written into a file by 2> arrives whole, as bash writes it', async () => {
    const dir = scratch.fresh();
    const result = await runCli(['--no-facts', '-q', '-c', `${name} 2> err.txt`], {
      cwd: dir,
      deadlineMs: 60_000,
    });
    expect(result.code).toBe(127);
    const bash = spawnSync('bash', ['--norc', '-c', `${name} 2> bash-err.txt`], { cwd: dir });
    expect(bash.status).toBe(127);
    expect(fs.readFileSync(path.join(dir, 'err.txt'), 'utf8')).toBe(
      fs.readFileSync(path.join(dir, 'bash-err.txt'), 'utf8'),
    );
  });
});
