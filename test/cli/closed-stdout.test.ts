import { describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.js';

describe('stdout closed or unread', () => {
  it('says on stderr that the output is discarded when stdout is closed, instead of losing it silently', async () => {
    const { code, stdout } = await runCli(
      [
        '--no-facts',
        '-q',
        '--json',
        '--',
        'sh',
        '-c',
        `"${process.execPath}" "${BIN}" --no-facts -q -- echo hi >&-; echo "rc=$?" >&2`,
      ],
      { deadlineMs: 30_000 },
    );
    expect(code).toBe(0);
    expect(stdout).toContain(
      "safe-run: warning: stdout is closed (>&-, or Node's stdio 'ignore'): the last stage's output is discarded",
    );
    expect(stdout).toContain('rc=0');
  });

  it('refuses with 125 a JSON report to a closed stdout, but not a run whose output goes to /dev/null', async () => {
    const line = [
      `"${process.execPath}" "${BIN}" --no-facts --json -- echo hi >&-; echo "json=$?"`,
      `"${process.execPath}" "${BIN}" --no-facts -q -- echo hi >/dev/null; echo "null=$?"`,
    ].join('; ');
    const { stdout } = await runCli(['--no-facts', '-q', '--json', '--', 'sh', '-c', `(${line}) 2>&1`], {
      deadlineMs: 30_000,
    });
    expect(stdout).toContain('stdout is closed (>&-): the JSON report would be lost');
    expect(stdout).toContain('json=125');
    expect(stdout).toContain('null=0');
    expect(stdout).not.toContain('is discarded');
  });

  it('stops an endless stage with SIGPIPE when the reader of the JSON report has gone', async () => {
    const started = Date.now();
    const line = `"${process.execPath}" "${BIN}" --no-facts --json -- yes | true; echo "status=\${PIPESTATUS[0]}"`;
    const { stdout, code } = await runCli(
      ['--no-facts', '-q', '--json', '--', 'bash', '-c', `(${line}) 2>&1`],
      {
        deadlineMs: 60_000,
      },
    );
    expect(code).toBe(0);
    expect(stdout).toContain('the reader of stdout is gone');
    expect(stdout).toContain('status=141');
    expect(Date.now() - started).toBeLessThan(60_000);
  });
});
