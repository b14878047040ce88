import { describe, expect, it } from 'vitest';
import { againstBash } from '../helpers/against-bash.js';
import { runCli } from '../helpers/cli.js';

// `exit` in a -c text ends it as it ends `bash -o pipefail -c TEXT`: with its argument's status
// (modulo 256; 2 for a word that is no number, 1 for too many arguments), or $? without one; the
// steps after it do not run (`! exit N` too; an exit whose own redirection failed did not run). In a pipeline it ends only its own stage, as bash's subshell does.

const env = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: process.env.HOME ?? '/',
  LANG: 'C.UTF-8',
  A: '6',
};

const TEXTS = [
  'true || exit 1; echo after',
  'false || exit 3; echo after',
  'false; exit',
  'false\nexit',
  'echo a; exit 300; echo b',
  'exit abc; echo no',
  'exit 1 2; echo goes-on',
  'echo x | exit 4; echo $?',
  'cd / && exit 5; echo no',
  'exit -- 5',
  'exit $A; echo no',
  'true && exit; echo no',
  // `!` does not invert an exit: the shell is gone first.
  '! exit 3; echo no',
  'false; ! exit',
  '! ! exit 4',
  // A redirection of exit's own that fails keeps it from running: bash goes on with status 1.
  'exit 3 >/nonexist/x; echo after $?',
  'exit 3 </nonexist/x || echo r$?',
  '! exit 3 2>/nonexist/x && echo inverted',
];

describe('exit as a step', () => {
  it.each(TEXTS)('ends the text as bash does: %j', async (text) => {
    const { bash, ours, report } = await againstBash(text, { env });
    expect(ours).toEqual(bash);
    const steps = report.steps ?? [];
    // The exit that ended the text: one that ran (its own redirection did not fail).
    const started = (step: (typeof steps)[number]) =>
      report.stages[step.stages[0]! - 1]?.status !== 'not-started';
    const exitAt = steps.findIndex((step) => step.ran && /^(! )*exit\b/.test(step.text) && started(step));
    for (const step of steps.slice(exitAt + 1)) {
      if (exitAt !== -1) expect(step.skippedBecause).toBe('exit');
    }
  });

  it('shows the steps after it as skipped after exit', async () => {
    const result = await runCli(['--no-facts', '-c', 'echo a; exit 3; echo b'], { env });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('a\n');
    expect(result.stderr).toContain('step 3: echo b: skipped (after exit)\n');
  });
});
