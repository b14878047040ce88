import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/cli.js';
import { runSafeRun } from '../helpers/shell-oracle.js';

// A stop by one of safe-run's own limits (idle, prompt wait) ends a -c text not ok: the steps after
// the stopped one are skipped and say why. It once went on to the next step, whose exit 0 became the
// run's: `sleep 75; echo finished` under the one-minute idle limit ended "ok, exit 0".

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'own-limit-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8', PWD: dir };

describe('a -c list stopped by one of safe-run limits', () => {
  it('ends at an idle stop, exit 124, with the later steps skipped as stopped', async () => {
    const text = 'echo start; sleep 30; echo finished && echo more';
    const { exit, report, stderr } = await runSafeRun(text, dir, env, ['--idle-timeout', '300ms']);
    expect(exit, stderr).toBe(124);
    expect(report.ok).toBe(false);
    expect(report.verdict.reason).toContain('the idle timeout');
    expect(report.steps!.map((step) => step.skippedBecause ?? (step.ran ? 'ran' : 'skipped'))).toEqual([
      'ran',
      'ran',
      'stopped',
      'stopped',
    ]);
    expect(report.stages.map((stage) => stage.status)).toEqual(['ok', 'timeout']);
  });

  it('ends at a prompt stop, exit 124, and does not run what follows', async () => {
    const ask = path.join(FIXTURES, 'agent', 'ask');
    const text = `${ask}; touch after-prompt`;
    const { exit, report, stderr } = await runSafeRun(text, dir, env, ['--prompt-wait', '300ms']);
    expect(exit, stderr).toBe(124);
    expect(report.stages[0]!.stop?.reason).toBe('waiting for an answer: Overwrite config.json? [y/N]');
    expect(report.steps![1]!.skippedBecause).toBe('stopped');
    expect(fs.existsSync(path.join(dir, 'after-prompt'))).toBe(false);
  });
});
