import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const SECRET = 'tok-5f3a9c1e7b2d4068a1c3e5f7b9d1f3a5c7e9b1d3';
const env = { DEPLOY_TOKEN: SECRET, PLAIN: 'plain-value-123' };

// Every exit-125 message is masked before it is printed; the secret appears nowhere.
describe('refused requests never print a secret', () => {
  const cases: [string, string[], Record<string, string>][] = [
    ['--timeout', [`--timeout=${SECRET}`, '--', 'true'], {}],
    ['--ok-codes', ['--ok-codes', `${SECRET}=1`, '--', 'true'], {}],
    ['--report', ['--report', `/nonexistent/${SECRET}/r.json`, '--', 'true'], {}],
    ['--max-stdout', ['--max-stdout', SECRET, '--', 'true'], {}],
    ['SAFE_RUN_OPTIONS', ['--', 'true'], { SAFE_RUN_OPTIONS: `--kill-after ${SECRET}` }],
    ['a --mask name', ['--mask', 'PLAIN', '--timeout', 'plain-value-123', '--', 'true'], {}],
  ];
  for (const [what, args, extra] of cases) {
    it(`in the message about ${what}, on stderr and in the JSON error`, async () => {
      for (const json of [[], ['--json']]) {
        const result = await runCli(['--no-facts', ...json, ...args], { env: { ...env, ...extra } });
        expect(result.code).toBe(125);
        expect(result.stderr).toMatch(/^safe-run: .*\*\*\*/);
        const printed = result.stdout + result.stderr;
        expect(printed).not.toContain(SECRET.slice(0, 20));
        expect(printed).not.toContain('plain-value-123');
      }
    });
  }
});

describe('a refused request under --json', () => {
  it('prints a JSON error document on stdout and the usual line on stderr', async () => {
    const result = await runCli(['--no-facts', '--json', '--timeout', '42D', '--', 'true']);
    expect(result.code).toBe(125);
    expect(JSON.parse(result.stdout)).toEqual({
      schemaVersion: 1,
      ok: false,
      exitCode: 125,
      reason:
        'refused before anything ran: --timeout: "42D" is not a duration; write seconds (10, 2.5) or a number with a unit: 250ms, 5s, 2m, 1h, 1d',
      next: 'nothing ran: fix the command line as the reason says (`safe-run --help` lists every flag), then run it again',
      error: {
        code: 'usage.duration',
        column: null,
        message:
          '--timeout: "42D" is not a duration; write seconds (10, 2.5) or a number with a unit: 250ms, 5s, 2m, 1h, 1d',
      },
    });
    expect(result.stderr).toMatch(/^safe-run: --timeout: "42D" is not a duration/);
  });

  it('does so even when the parser refused the flags themselves', async () => {
    const result = await runCli(['--no-facts', '--json', '--polcy', 'last', '--', 'true']);
    expect(result.code).toBe(125);
    expect(JSON.parse(result.stdout).error.code).toBe('commander.unknownOption');
  });

  it('prints nothing on stdout without --json, and counts no --json that is a value', async () => {
    const result = await runCli(['--no-facts', '--report', '--json', '--timeout', 'x', '--', 'true']);
    expect(result.code).toBe(125);
    expect(result.stdout).toBe('');
  });
});
