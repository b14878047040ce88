import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/index.js';

// Bad requests: one line, exit 125, nothing started, never a stack trace.
describe('bad requests', () => {
  const cases: [string, string[], RegExp][] = [
    ['no pipeline at all', [], /nothing to run/],
    ['two inputs at once', ['-c', 'true', '--', 'true'], /only one of/],
    ['an unknown flag', ['--polcy', 'last', '--', 'true'], /unknown option.*--polcy/],
    ['a bad policy', ['--policy', 'sometimes', '--', 'true'], /sometimes/],
    ['a bad duration', ['--timeout', '42D', '--', 'true'], /not a duration/],
    ['a bad size', ['--max-stderr', 'lots', '--', 'true'], /not a size/],
    ['ok-codes for a stage that does not exist', ['--ok-codes', 'grep=0,1', '--', 'true'], /no stage "grep"/],
    ['malformed ok-codes', ['--ok-codes', 'grep', '--', 'true'], /STAGE=CODES/],
    ['a missing stdin file', ['--stdin', '/nonexistent/input', '--', 'cat'], /no such file/],
    [
      'a report in a missing directory',
      ['--report', '/nonexistent/dir/r.json', '--', 'true'],
      /not writable/,
    ],
    [
      'shell syntax in -c that safe-run does not interpret',
      ['-c', 'ls; f=<(echo a) <(echo b)'],
      /<\( \.\.\. \) at column 7 is a process substitution/,
    ],
  ];
  for (const [what, args, message] of cases) {
    it(`refuses ${what} with one line and exit 125`, async () => {
      const result = await runCli(['--no-facts', ...args]);
      expect(result.code).toBe(125);
      expect(result.stdout).toBe('');
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^safe-run: /);
      expect(lines[0]).toMatch(message);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    });
  }

  it('prints help on stdout and exits 0', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/--policy/);
  });
});

describe('bad output locations', () => {
  it('refuses a --report that is a directory, before anything starts', async () => {
    const result = await runCli(['--no-facts', '--report', '/tmp', '--', 'true']);
    expect(result.code).toBe(125);
    expect(result.stderr).toMatch(/is a directory/);
  });

  it('refuses a --log-dir that cannot be made', async () => {
    const result = await runCli(['--no-facts', '--log-dir', '/etc/passwd/logs', '--', 'true']);
    expect(result.code).toBe(125);
    expect(result.stderr).toMatch(/not a directory/);
  });
});

describe('refusals under --json', () => {
  it('prints a JSON error document on stdout with the code, column and message', async () => {
    const result = await runCli(['--no-facts', '--json', '-c', 'echo a && coproc cat']);
    expect(result.code).toBe(125);
    expect(JSON.parse(result.stdout)).toEqual({
      schemaVersion: 1,
      ok: false,
      exitCode: 125,
      reason: expect.stringMatching(/^refused before anything ran: -c: coproc at column 11 /),
      next: 'nothing ran: change the text at column 11, or the flags, as the reason says, then run it again',
      error: {
        code: 'syntax.coproc',
        column: 11,
        message: expect.stringMatching(/^-c: coproc at column 11 .*--fallback bash/),
      },
    });
    expect(result.stderr).toMatch(/^safe-run: -c: coproc/);
  });
});
