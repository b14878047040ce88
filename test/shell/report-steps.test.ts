import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, runJson } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';

// What a -c run says about its steps: the directory it starts in (--cwd), the table grouped by
// step, and a redirection that fails, as the report records it.

const scratch = scratchDir('report-steps-');
afterAll(() => scratch.remove());

function tree(): string {
  const dir = scratch.fresh();
  fs.mkdirSync(path.join(dir, 'sub', 'o'), { recursive: true });
  return dir;
}

describe('safe-run -c with --cwd', () => {
  it('runs the first step in DIR, resolves files there, and a cd moves the later steps', async () => {
    const dir = tree();
    const { result, report } = await runJson(['--cwd', 'sub', '-c', 'pwd > o/where; cd .. && pwd'], {
      cwd: dir,
      env: { PWD: dir },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'sub', 'o', 'where'), 'utf8')).toBe(`${path.join(dir, 'sub')}\n`);
    expect(report.steps!.map((step) => step.cwd)).toEqual([
      path.join(dir, 'sub'),
      path.join(dir, 'sub'),
      dir,
    ]);
    expect(report.stages.at(-1)!.stdout.text).toBe(`${dir}\n`);
  });
});

describe('the table of a -c run', () => {
  it('groups stages under their step, shows a changed directory and a skipped step', async () => {
    const dir = tree();
    const result = await runCli(['--no-facts', '-c', 'cd sub && ls | wc -l || echo never'], {
      cwd: dir,
      env: { PWD: dir },
    });
    expect(result.code, result.stderr).toBe(0);
    const rows = result.stderr
      .split('\n')
      .filter((row) => /^(step \d|\d+ )/.test(row))
      .map((row) => row.replace(/\s+\d+ms\s+/, ' T ').replace(/\s+/g, ' '));
    expect(rows).toEqual([
      'step 1: cd sub',
      '1 cd ok 0 T 0 B 0 B',
      `step 2: && ls | wc -l (in ${path.join(dir, 'sub')})`,
      '2 ls ok 0 T piped 0 B',
      '3 wc ok 0 T 2 B 0 B',
      'step 3: || echo never: skipped',
    ]);
  });
});

describe('a redirection that fails, in the report', () => {
  it('records a missing directory and an ambiguous target as not-started stages with bash codes', async () => {
    const dir = tree();
    const { result, report } = await runJson(['-c', 'echo a > nodir/f; echo b > $NOPE; echo c'], {
      cwd: dir,
      env: { PWD: dir, NOPE: undefined },
    });
    expect(result.code, result.stderr).toBe(0);
    const failed = report.stages.slice(0, 2).map((stage) => ({
      status: stage.status,
      code: stage.error?.code,
      exitCode: stage.error?.exitCode,
      during: stage.error?.during,
      message: stage.error?.message,
    }));
    expect(failed).toEqual([
      {
        status: 'not-started',
        code: 'ENOENT',
        exitCode: 1,
        during: 'redirect',
        message: 'bash: line 1: nodir/f: No such file or directory',
      },
      {
        status: 'not-started',
        code: 'EAMBIGUOUS',
        exitCode: 1,
        during: 'redirect',
        message: 'bash: line 1: $NOPE: ambiguous redirect',
      },
    ]);
    expect(report.steps!.map((step) => [step.ran, step.exitCode])).toEqual([
      [true, 1],
      [true, 1],
      [true, 0],
    ]);
    expect(report.stages[2]!.stdout.text).toBe('c\n');
    expect(fs.existsSync(path.join(dir, 'nodir'))).toBe(false);
  });
});
