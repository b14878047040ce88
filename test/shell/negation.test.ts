import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/types.js';
import { againstBash } from '../helpers/against-bash.js';
import { runCli } from '../helpers/cli.js';

// `! pipeline` inverts the pipeline's status as bash's reserved word does: what runs next after it, and
// the run's exit code when it is the last step. `!x` is a command named "!x"; `a | ! b` is a syntax
// error in bash and refused here.

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/', LANG: 'C.UTF-8' };

const TEXTS = [
  '! true; echo $?',
  '! false',
  '! true',
  '! ! true; echo $?',
  '! true | false; echo $?',
  '! false | true && echo yes || echo no',
  '! grep -q zz /dev/null && echo missing',
  'true && ! false || echo no',
  '!true; echo $?',
  // A state change negated: the variable set, $? 1.
  '! A=1; echo $? $A',
  '! export A=2; echo $? $A',
  '! A=1',
];

describe('! before a pipeline', () => {
  it.each(TEXTS)('runs as bash runs it: %j', async (text) => {
    const { bash, ours } = await againstBash(text, { env });
    expect(ours).toEqual(bash);
  });

  it('says why a run whose last step succeeded failed, and the step codes are bash $?', async () => {
    const result = await runCli(['--no-facts', '--json', '-c', 'false; ! true'], { env });
    const report = JSON.parse(result.stdout) as Report;
    expect(result.code).toBe(1);
    expect(report.steps!.map((step) => step.exitCode)).toEqual([1, 1]);
    expect(report.verdict.reason).toBe('step 2 (the last that ran) is negated by !, and it succeeded');
    expect(report.next).toMatch(/^nothing failed: the last step \(2\) is negated by !/);
  });

  it('is refused after a |, where bash has a syntax error', async () => {
    const result = await runCli(['--no-facts', '-c', 'echo a | ! true'], { env });
    expect(result.code).toBe(125);
    expect(result.stderr).toMatch(/^safe-run: -c: unexpected "!" at column 10 \(a syntax error in bash\)/);
    expect(result.stderr).not.toMatch(/--fallback/);
  });

  it('with no command after it is run as bash runs it (a pipeline of nothing, negated: $? is 1)', async () => {
    for (const text of ['true && ! ; echo $?', '! ! ; echo $?', '!']) {
      const { bash, ours } = await againstBash(text, { env });
      expect(ours, text).toEqual(bash);
    }
  });
});
