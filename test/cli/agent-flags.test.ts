import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runCli } from '../helpers/cli.js';

const ASK = path.join(FIXTURES, 'agent', 'ask');

describe('--agent', () => {
  it('gives stages no pager, no colour, no credential prompt and a closed stdin', async () => {
    const result = await runCli(
      [
        '--agent',
        '--json',
        '--no-facts',
        '--',
        'sh',
        '-c',
        'env | grep -E "^(PAGER|GIT_PAGER|GIT_EDITOR|NO_COLOR|GIT_TERMINAL_PROMPT|DEBIAN_FRONTEND)=" | sort; wc -c',
      ],
      { input: 'typed by nobody\n', env: { PAGER: 'less' } },
    );
    const report = JSON.parse(result.stdout);
    expect(report.stages[0].stdout.text).toBe(
      'DEBIAN_FRONTEND=noninteractive\nGIT_EDITOR=false\nGIT_PAGER=cat\nGIT_TERMINAL_PROMPT=0\nNO_COLOR=1\nPAGER=cat\n0\n',
    );
    expect(report.settings).toMatchObject({
      stdin: { kind: 'null' },
      timeoutMs: 120_000,
      idleTimeoutMs: 60_000,
      promptWaitMs: 2000,
    });
  });

  it('lets explicit flags and a stage variable win over its defaults', async () => {
    const result = await runCli(
      [
        '--agent',
        '--json',
        '--no-facts',
        '--timeout',
        '5m',
        '--stdin',
        'inherit',
        '-c',
        'PAGER=more printenv PAGER',
      ],
      { input: '' },
    );
    const report = JSON.parse(result.stdout);
    expect(report.settings.timeoutMs).toBe(300_000);
    expect(report.settings.stdin).toEqual({ kind: 'inherit' });
    expect(report.stages[0].stdout.text).toBe('more\n');
  });

  it('stops a stage that went quiet after a prompt, and says what it asked', async () => {
    const result = await runCli(['--agent', '--json', 'compact', '--no-facts', '--', ASK]);
    expect(result.code).toBe(124);
    const compact = JSON.parse(result.stdout);
    expect(compact.stages[0].stop).toBe('waiting for an answer: Overwrite config.json? [y/N]');
    expect(compact.next).toMatch(/non-interactive option/);
  });
});

describe('--json compact', () => {
  it('prints one line without settings, streams as bytes and text', async () => {
    const result = await runCli(['--json', 'compact', '--no-facts', '-c', 'printf "a\\nb\\n" | wc -l']);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines).toHaveLength(2);
    const compact = JSON.parse(lines[0]!);
    expect(compact.settings).toBeUndefined();
    expect(compact.stages[0]).not.toHaveProperty('stdout');
    expect(compact.stages[1].stdout).toEqual({ bytes: 2, text: '2\n' });
  });

  it('says how much was cut only when something was', async () => {
    const result = await runCli([
      '--json=compact',
      '--no-facts',
      '--max-stdout',
      '1KiB',
      '--',
      'seq',
      '1',
      '10000',
    ]);
    const compact = JSON.parse(result.stdout);
    expect(compact.stages[0].stdout.bytes).toBe(48_894);
    expect(compact.stages[0].stdout.omitted).toBeGreaterThan(40_000);
  });

  it('leaves --json as the full report, and a program after a bare --json as the program', async () => {
    const result = await runCli(['--json', '--no-facts', 'echo', 'compact']);
    const report = JSON.parse(result.stdout);
    expect(report.settings).toBeDefined();
    expect(report.stages[0].stdout.text).toBe('compact\n');
  });

  it('refuses an unknown format in one line, exit 125', async () => {
    const result = await runCli(['--json=short', '--', 'true']);
    expect(result.code).toBe(125);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('compact');
  });
});
