import { describe, expect, it } from 'vitest';
import { runCli, runJson } from '../helpers/cli.js';

// Durations as coreutils `timeout` reads them (checked against timeout 9.1 on this machine:
// `timeout 10`, `1d`, `0`, `.1` and `10.34` are accepted, `42D` and `invalid` give 125).
describe('durations, read as coreutils timeout reads them', () => {
  const accepted: [string, number | null][] = [
    ['10', 10_000],
    ['1d', 86_400_000],
    ['.1', 100],
    ['10.34', 10_340],
    ['250ms', 250],
  ];
  for (const [flag, key] of [
    ['--timeout', 'timeoutMs'],
    ['--kill-after', 'killAfterMs'],
  ] as const) {
    for (const [text, ms] of accepted) {
      // Read by a dry run: a run of `true` under `--timeout .1` can end by its limit on a busy
      // machine (once in an under-load run of the suite), and what is checked here is the reading.
      it(`${flag} ${text} is ${ms} ms`, async () => {
        const { result, report } = await runJson(['--no-facts', '--dry-run', flag, text, '--', 'true']);
        expect(result.code).toBe(0);
        expect(report.settings[key]).toBe(ms);
      });
    }
    for (const text of ['42D', 'invalid', '1e2', '-1', '']) {
      it(`${flag} ${JSON.stringify(text)} is refused with one line and exit 125`, async () => {
        const result = await runCli(['--no-facts', flag, text, '--', 'true']);
        expect(result.code).toBe(125);
        expect(result.stderr).toBe(
          `safe-run: ${flag}: ${JSON.stringify(text)} is not a duration; write seconds (10, 2.5) or a number with a unit: 250ms, 5s, 2m, 1h, 1d\n`,
        );
      });
    }
  }

  it('--timeout 0 is no limit', async () => {
    const { result, report } = await runJson(['--no-facts', '--timeout', '0', '--', 'true']);
    expect(result.code).toBe(0);
    expect(report.settings.timeoutMs).toBeNull();
  });

  it('--kill-after 0 sends SIGKILL right after SIGTERM', async () => {
    const { report } = await runJson(['--no-facts', '--kill-after', '0', '--', 'true']);
    expect(report.settings.killAfterMs).toBe(0);
  });

  it('--timeout .1 stops a stage that would run for minutes, with exit 124', async () => {
    const { result, report } = await runJson(['--no-facts', '--timeout', '.1', '--', 'sleep', '300']);
    expect(result.code).toBe(124);
    expect(report.stages[0]!.status).toBe('timeout');
  });
});
