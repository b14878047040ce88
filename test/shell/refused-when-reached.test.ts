import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/types.js';
import { runCli } from '../helpers/cli.js';

// What a step shows only once it is reached (here a command name from a variable that names a bash
// builtin safe-run's interpreter does not run) cannot be refused before the run: the run ends at that
// step with a report of what ran, exit 125, and advice that works (the steps before it ran, so the
// whole text is given to bash as one supervised stage).

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/', LANG: 'C.UTF-8' };
const run = (args: string[]) => runCli(['--no-facts', ...args], { env });

describe('a step refused when it is reached', () => {
  it.each([[[]], [['--fallback', 'bash']]])(
    'ends the run there: a report of what ran, the step refused, exit 125 (%j)',
    async (flags) => {
      const text = 'echo a; C=enable; $C -n kill; echo after';
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
      expect(report.verdict.reason).toBe(
        "step 3 was refused: $C -n kill at line 1, column 19 runs builtin enable, which safe-run's interpreter does not run",
      );
      expect(report.next).toMatch(/safe-run -- bash -o pipefail -c 'TEXT'$/);

      const table = await run([...flags, '-c', text]);
      expect(table.code).toBe(125);
      expect(table.stdout).toBe('a\n');
      expect(table.stderr).toContain('step 3: $C -n kill: refused\n');
      expect(table.stderr).toContain('step 4: echo after: skipped (a step before it was refused)\n');

      // The advice works: bash runs the whole text.
      const advised = await run(['-q', '--', 'bash', '-o', 'pipefail', '-c', text]);
      expect(advised.code).toBe(0);
      expect(advised.stdout).toBe('a\nafter\n');
    },
  );
});
