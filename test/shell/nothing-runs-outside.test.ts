// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the texts are bash source
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { isRequestError } from '../../src/errors.js';
import { planFromInline } from '../../src/plan.js';
import { planShellDryRun } from '../../src/shell/dry-run-steps.js';
import { runCli } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';
import { testSize } from '../helpers/sizes.js';

// Nothing of a -c text runs outside a supervised stage, and nothing at all under --dry-run: a
// substitution of any kind, wherever it hides inside ${...}, never runs in a dry run, a process
// substitution there never runs at all (refused), and a command substitution runs only as a step of its own.
// Each case would create the file `pwned` if any of it ran.

const scratch = scratchDir('nothing-outside-');
afterAll(() => scratch.remove());

const substitution = fc.constantFrom(
  '$(touch pwned)',
  '`touch pwned`',
  '<(touch pwned)',
  '>(touch pwned)',
  '$( touch pwned )',
  '$((a[$(touch pwned)]))',
  '"$(touch pwned)"',
  "'x'<(touch pwned)",
  '${Z:-$(touch pwned)}',
  '${Z:-<(touch pwned)}',
);
const operator = fc.constantFrom(
  ':-',
  '-',
  ':+',
  '+',
  '#',
  '##',
  '%',
  '%%',
  '/x/',
  '//x/',
  '/',
  ':=',
  '=',
  ':?',
  '^',
  ',',
);
const name = fc.constantFrom('U', 'HOME', 'PATH', '1', '@', '*');
const expansion = fc
  .tuple(name, operator, substitution, fc.boolean())
  .map(([n, op, sub, quoted]) => (quoted ? `"\${${n}${op}${sub}}"` : `\${${n}${op}${sub}}`));
const place = fc.constantFrom(
  (e: string) => `echo ${e}`,
  (e: string) => `cat < ${e}`,
  (e: string) => `echo x > ${e}`,
  (e: string) => `export X=${e}`,
  (e: string) => `X=${e} printenv X`,
  (e: string) => `Y=${e}`,
  (e: string) => `cat <<< ${e}`,
  (e: string) => `true && echo a${e}b | cat`,
  (e: string) => `cd ${e}`,
);
const texts = fc.tuple(place, expansion).map(([at, e]) => at(e));

describe('a substitution inside ${...}', () => {
  it('never runs while a dry run plans the text (generated forms)', async () => {
    const cases = fc.sample(texts, { seed: 20261202, numRuns: testSize(150, 400, 'SHELL_OUTSIDE_RUNS') });
    const dir = scratch.fresh();
    for (const text of cases) {
      try {
        const plan = planFromInline(text, { cwd: dir });
        await planShellDryRun(plan, { ...process.env, PWD: dir });
      } catch (error) {
        if (!isRequestError(error)) throw error;
      }
      expect(fs.existsSync(path.join(dir, 'pwned')), text).toBe(false);
    }
  });

  it('never runs under the CLI, in a dry run or a real one (the forms the hostile review found)', async () => {
    const found = [
      'echo ${U:-<(touch pwned)}',
      'echo ${HOME+>(touch pwned)}',
      'echo ${HOME#<(touch pwned)}',
      'echo ${HOME/x/<(touch pwned)}',
      'cat < ${U:-<(touch pwned)}',
      'export X=${U:-<(touch pwned)}',
      'X=${U:-<(touch pwned)} printenv X',
    ];
    const dir = scratch.fresh();
    for (const text of found) {
      for (const dry of [['--dry-run'], []]) {
        const result = await runCli(['--no-facts', ...dry, '-c', text], { cwd: dir });
        expect(result.code, `${dry.join('')} ${text}: ${result.stderr}`).toBe(125);
        expect(result.stderr).toMatch(/^safe-run: -c: .* at column \d+ /);
        expect(fs.existsSync(path.join(dir, 'pwned')), text).toBe(false);
      }
    }
  });

  it('runs a command substitution inside ${...} as a step of its own, and never in a dry run', async () => {
    const dir = scratch.fresh();
    const text = 'echo ${U:-`touch pwned; echo made`}';
    const dry = await runCli(['--no-facts', '--dry-run', '-c', text], { cwd: dir });
    expect(dry.code, dry.stderr).toBe(0);
    expect(fs.existsSync(path.join(dir, 'pwned'))).toBe(false);
    const real = await runCli(['--no-facts', '--json', '-c', text], { cwd: dir });
    expect(real.code).toBe(0);
    const report = JSON.parse(real.stdout) as { steps: { text: string; parent?: number }[] };
    expect(report.steps.map((step) => step.text)).toContain('touch pwned');
    expect(fs.existsSync(path.join(dir, 'pwned'))).toBe(true);
  });

  it('is still only text where bash reads it as text', async () => {
    const dir = scratch.fresh();
    const result = await runCli(['--no-facts', '-q', '-c', 'echo ${U:-(none)} "<(x)" ${U:-a<b}'], {
      cwd: dir,
    });
    expect(result.stdout).toBe('(none) <(x) a<b\n');
    expect(result.code).toBe(0);
  });
});
