import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/types.js';
import { runCli } from '../helpers/cli.js';

// What a step shows only once it is reached (here a command name from a variable that names a builtin
// safe-run refuses) cannot be refused before the run. Before any step started a process nothing has
// happened, so the refusal is the usual one line, and --fallback bash hands the whole text to bash;
// after one did, the run ends at that step with a report of what ran, and advice that still works.

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/', LANG: 'C.UTF-8' };
const run = (args: string[], extra: Record<string, string> = {}) =>
  runCli(['--no-facts', ...args], { env: { ...env, ...extra } });

describe('a step refused when it is reached', () => {
  it('before any process started: one line, exit 125, and --fallback bash runs the whole text under bash', async () => {
    const refused = await run(['-c', '$X echo hi'], { X: 'eval' });
    expect(refused.code).toBe(125);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(
        /^safe-run: -c: builtin eval at column 1 .*; add --fallback bash to run the whole text/,
      ),
    ]);

    // An assignment step changes safe-run's state only: it starts no process.
    const fallback = await run(['--json', '--fallback', 'bash', '-c', 'C=$X; $C echo hi'], { X: 'eval' });
    expect(fallback.code).toBe(0);
    const report = JSON.parse(fallback.stdout) as Report;
    expect(report.fallback).toEqual({ construct: 'builtin eval', column: 7 });
    expect(report.stages.map((stage) => [stage.argv, stage.stdout.text])).toEqual([
      [['bash', '-o', 'pipefail', '-c', 'C=$X; $C echo hi'], 'hi\n'],
    ]);
  });

  it.each([[[]], [['--fallback', 'bash']]])(
    'after a step started processes: a report of what ran, the step refused, exit 125 (%j)',
    async (flags) => {
      const text = 'echo a; C=eval; $C echo hi; echo after';
      const result = await run([...flags, '--json', '-c', text]);
      expect(result.code).toBe(125);
      const report = JSON.parse(result.stdout) as Report;
      expect(report.exitCode).toBe(125);
      expect(report.steps!.map((step) => [step.ran, step.skippedBecause ?? null])).toEqual([
        [true, null],
        [true, null],
        [false, 'refused'],
        [false, 'after-refusal'],
      ]);
      expect(report.stages.map((stage) => stage.stdout.text)).toEqual(['a\n', '']);
      expect(report.verdict.reason).toMatch(
        /^step 3 was refused: builtin eval at column 17 runs text as shell code/,
      );
      expect(report.verdict.reason).not.toMatch(/fallback/);
      expect(report.next).toMatch(/safe-run -- bash -o pipefail -c 'TEXT'$/);

      const table = await run([...flags, '-c', text]);
      expect(table.code).toBe(125);
      expect(table.stdout).toBe('a\n');
      expect(table.stderr).toContain('step 3: ; $C echo hi: refused\n');
      expect(table.stderr).toContain('step 4: ; echo after: skipped (a step before it was refused)\n');

      // The advice works: bash runs the whole text.
      const advised = await run(['--', 'bash', '-o', 'pipefail', '-c', text]);
      expect(advised.code).toBe(0);
      expect(advised.stdout).toBe('a\nhi\nafter\n');
    },
  );
});
