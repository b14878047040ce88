import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/types.js';
import { runCli } from '../helpers/cli.js';

// What the text's builtins print (echo, printf, an error message) is masked as a program's output
// is: on safe-run's stderr and in the kept text of the report; the product (stdout) goes out as
// written. A builtin's ::add-mask:: line registers its value, as a program's does.

const TOKEN = 'hunter2-builtin-secret';
const ADDED = 'added-by-echo-77';

describe("a builtin's output and secrets", () => {
  it('masks a secret variable on stderr and in the kept text, and leaves the product as written', async () => {
    const text = 'echo "tok $API_TOKEN" >&2; echo "out $API_TOKEN"; printf "%s\\n" "$API_TOKEN" >&2';
    const env = { API_TOKEN: TOKEN };
    const shown = await runCli(['--no-facts', '-c', text], { env });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toBe(`out ${TOKEN}\n`);
    expect(shown.stderr).toContain('tok ***\n***\n');
    expect(shown.stderr).not.toContain(TOKEN);
    const json = await runCli(['--no-facts', '--json', '-c', text], { env });
    const report = JSON.parse(json.stdout) as Report;
    expect(report.stages.map((stage) => [stage.stdout.text, stage.stderr.text])).toEqual([
      ['', 'tok ***\n'],
      ['out ***\n', ''],
      ['', '***\n'],
    ]);
  });

  it('registers the value of its ::add-mask:: line under GitHub, with or without --json', async () => {
    const text = `echo "::add-mask::${ADDED}"; sh -c 'echo "later ${ADDED}" >&2'; echo "mine ${ADDED}" >&2`;
    const env = { GITHUB_ACTIONS: 'true', CI: 'true' };
    const shown = await runCli(['--no-facts', '-c', text], { env });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toBe(`::add-mask::${ADDED}\n`);
    expect(shown.stderr).toContain('later ***\n');
    expect(shown.stderr).toContain('mine ***\n');
    // Only the banner, printed before anything ran, says it.
    const [banner, ...after] = shown.stderr.split('\n');
    expect(banner).toMatch(/^safe-run: running /);
    expect(after.join('\n')).not.toContain(ADDED);
    const json = await runCli(['--no-facts', '--json', '-c', text], { env });
    expect(json.stdout).not.toContain(ADDED);
    const report = JSON.parse(json.stdout) as Report;
    expect(report.stages[1]!.stderr.text).toBe('later ***\n');
  });
});
