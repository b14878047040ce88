import { describe, expect, it } from 'vitest';
import { runCli, runJson } from '../helpers/cli.js';

// --fallback bash: a construct safe-run does not interpret runs under bash as one supervised stage,
// marked as such; without the flag it is refused.
describe('--fallback bash', () => {
  it('runs a process substitution in an assignment under bash -o pipefail as one stage, marked with the construct and column', async () => {
    const text = 'f=<(true); printf "1\\n2\\n3\\n" | sort -r | head -n 1';
    const { result, report } = await runJson(['--fallback', 'bash', '-c', text]);
    expect(result.code).toBe(0);
    expect(report.fallback).toEqual({ construct: '<( ... )', column: 3 });
    expect(report.stages.map((stage) => stage.argv)).toEqual([['bash', '-o', 'pipefail', '-c', text]]);
    expect(report.stages[0]!.stdout.text).toBe('3\n');
    expect(report.steps).toEqual([
      { index: 1, text, connector: null, ran: true, exitCode: 0, cwd: expect.any(String), stages: [1] },
    ]);
  });

  it('uses plain bash -c under --policy last, with the exit code bash gives', async () => {
    const text = 'false | true; coproc cat; exit 4';
    const { report } = await runJson(['--fallback', 'bash', '--policy', 'last', '-c', text]);
    expect(report.fallback).toEqual({ construct: 'coproc', column: 15 });
    expect(report.stages[0]!.argv.slice(0, 2)).toEqual(['bash', '-c']);
    expect(report.exitCode).toBe(4);
  });

  it('shows in the table that bash ran the text', async () => {
    const text = 'select x in a; do break; done <<< 1';
    const result = await runCli(['--no-facts', '--fallback', 'bash', '-c', text]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('run by bash (--fallback bash): select loop at column 1');
  });

  it('does not change text safe-run interprets itself', async () => {
    const { report } = await runJson(['--fallback', 'bash', '-c', 'echo a | cat']);
    expect(report.fallback).toBeNull();
    expect(report.stages.map((stage) => stage.name)).toEqual(['echo', 'cat']);
  });

  it('is never silent: without the flag the construct is refused, with the way out', async () => {
    const result = await runCli(['--no-facts', '-c', 'f=<(echo a); diff $f <(echo b)']);
    expect(result.code).toBe(125);
    expect(result.stderr).toBe(
      "safe-run: -c: <( ... ) at column 3 is a process substitution where safe-run does not run one (it runs them in a command's words and a redirection's target); add --fallback bash to run the whole text as one supervised bash stage\n",
    );
  });
});
