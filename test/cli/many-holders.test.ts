import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli, runJson } from '../helpers/cli.js';

const HOLDERS = 40;
// A stage whose leader exits while 40 background children keep its output pipe open.
const STAGE = ['sh', '-c', `for i in $(seq ${HOLDERS}); do sleep 300 & done; echo x`];

// Gone: no such process, or a zombie (this machine's init reaps orphans late).
const alive = (pid: number) => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
};

describe('a pipe held by many processes', () => {
  it('is told in one short warning line (the first ten, then a count), and "killed" only for what is gone', async () => {
    const { report } = await runJson(['--drain-timeout', '300ms', '--', ...STAGE], { deadlineMs: 60_000 });
    const warning = report.warnings.find((text) => text.includes('stayed open'));
    expect(warning).toMatch(/held by (\d+ \(sleep 300\), ){9}\d+ \(sleep 300\) and 30 more; killed$/);
    expect(report.leftovers).toHaveLength(HOLDERS);
    for (const leftover of report.leftovers) {
      expect(leftover.action).toBe('killed');
      expect(alive(leftover.pid)).toBe(false);
    }
  });

  it('shows the first ten leftovers in the table, then how many more and their fate', async () => {
    const { stderr } = await runCli(['--no-facts', '--drain-timeout', '300ms', '--', ...STAGE], {
      deadlineMs: 60_000,
    });
    expect(stderr.split('\n').filter((line) => line.startsWith('leftover: pid '))).toHaveLength(10);
    expect(stderr).toContain('leftover: 30 more (30 killed); the JSON report lists every one\n');
  });
});
