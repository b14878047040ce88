import { afterAll, describe, expect, it } from 'vitest';
import { runCli, runJson, scratchDir } from '../helpers/index.js';

// What the user wrote stays as written in every sentence about it: stage numbers are facts the
// report carries, never found again in (and rewritten over) the words, so a file named "stage 1"
// keeps its name even where the stages around it are renumbered for the whole text.

const scratch = scratchDir('safe-run-words-');
afterAll(() => scratch.remove());

describe('a file named like a stage', () => {
  it('keeps its name in the error, the verdict and next, in step 2', async () => {
    const cwd = scratch.fresh();
    const { result, report } = await runJson(['-c', 'true; cat < "stage 1"'], { cwd });
    expect(result.code).toBe(1);
    const cat = report.stages[1]!;
    expect(cat.error?.message).toBe('bash: line 1: stage 1: No such file or directory');
    expect(report.verdict.blamedStage).toBe(2);
    expect(report.verdict.reason).toBe(
      'step 2 (the last that ran): policy pipefail: stage 2 "cat" failed: bash: line 1: stage 1: No such file or directory',
    );
    expect(report.next).toBe(
      'stage 2 "cat" was not started because a redirection failed (bash: line 1: stage 1: No such file or directory): fix the path or its permissions',
    );
  });

  it('keeps its name in the verdict of set -e, after a step that ran', async () => {
    const cwd = scratch.fresh();
    const { report } = await runJson(['-c', 'set -e; echo a; cat < "stage 1"; echo b'], { cwd });
    expect(report.exitCode).toBe(1);
    expect(report.verdict.reason).toContain('stage 1: No such file or directory');
    expect(report.verdict.reason).not.toContain('stage 2:');
  });

  it('keeps its name as the target of a redirection, in the report and in the table', async () => {
    const cwd = scratch.fresh();
    const { report } = await runJson(['-c', 'true; ls / > "stage 1"'], { cwd });
    const ls = report.stages[1]!;
    expect(ls.stdout.target).toEqual({ kind: 'file', path: 'stage 1' });
    expect(ls.stdout.to).toBe('file stage 1');
    const table = await runCli(['--no-facts', '-c', 'true; ls / > "stage 1" 2>&1'], { cwd });
    expect(table.stderr).toMatch(/^2 +ls +ok +0 +\S+ +> stage 1 +> stage 1$/m);
  });
});

describe('where a redirection sent a stream', () => {
  it.each([
    {
      text: 'ls /no/such/dir 2>&1 | cat',
      stage: 0,
      stream: 'stderr',
      target: { kind: 'stdout' },
      to: 'stdout',
    },
    { text: 'cat <<EOF >&2\nhi\nEOF', stage: 0, stream: 'stdout', target: { kind: 'stderr' }, to: 'stderr' },
    {
      text: 'echo hi > out.txt',
      stage: 0,
      stream: 'stdout',
      target: { kind: 'file', path: 'out.txt' },
      to: 'file out.txt',
    },
  ] as const)('is data beside its words: $text', async ({ text, stage, stream, target, to }) => {
    const cwd = scratch.fresh();
    const { report } = await runJson(['-c', text], { cwd });
    expect(report.stages[stage]![stream].target).toEqual(target);
    expect(report.stages[stage]![stream].to).toBe(to);
  });
});
