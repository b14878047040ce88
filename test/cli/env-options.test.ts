import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitWords } from '../../src/cli/split-words.js';
import { runCli, runJson } from '../helpers/cli.js';

describe('splitting SAFE_RUN_OPTIONS into words', () => {
  it('splits on blanks and honours quotes and backslashes as a shell does, without expanding', () => {
    expect(splitWords(` --timeout 10m  --log-dir 'my logs' --mask "A\\"B" x\\ y '' $HOME`, 'X')).toEqual([
      '--timeout',
      '10m',
      '--log-dir',
      'my logs',
      '--mask',
      'A"B',
      'x y',
      '',
      '$HOME',
    ]);
  });

  it('refuses a quote that is not closed', () => {
    expect(() => splitWords(`--log-dir 'logs`, 'SAFE_RUN_OPTIONS')).toThrow(
      "SAFE_RUN_OPTIONS: a ' quote is not closed",
    );
  });
});

describe('SAFE_RUN_OPTIONS', () => {
  it("an explicit flag there wins over --agent's defaults, wherever --agent was given", async () => {
    for (const [args, options] of [
      [[], '--agent --timeout 5m'],
      [['--agent'], '--timeout 5m'],
    ] as const) {
      const { result, report } = await runJson(['--no-facts', ...args, '--', 'true'], {
        env: { SAFE_RUN_OPTIONS: options },
      });
      expect(result.code).toBe(0);
      expect(report.settings).toMatchObject({ timeoutMs: 300_000, promptWaitMs: 2000 });
    }
  });

  it('--no-facts and --facts FILE there are honoured (the default ledger was used anyway)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-env-facts-'));
    const usual = path.join(dir, 'usual.jsonl');
    const named = path.join(dir, 'named.jsonl');
    const missing = ['--', 'no-such-program-env-facts'];
    const off = await runCli(missing, { env: { SAFE_RUN_FACTS: usual, SAFE_RUN_OPTIONS: '--no-facts' } });
    expect(off.code).toBe(127);
    expect(fs.existsSync(usual)).toBe(false);
    const there = await runCli(missing, {
      env: { SAFE_RUN_FACTS: usual, SAFE_RUN_OPTIONS: `--facts ${named}` },
    });
    expect(there.code).toBe(127);
    expect(fs.existsSync(usual)).toBe(false);
    expect(fs.readFileSync(named, 'utf8')).toContain('"program":"no-such-program-env-facts"');
    // The command line still wins over the environment.
    const flag = await runCli(['--facts', usual, ...missing], { env: { SAFE_RUN_OPTIONS: '--no-facts' } });
    expect(flag.code).toBe(127);
    expect(fs.existsSync(usual)).toBe(true);
  });

  it('sets defaults for every run, below a spec file and the command line', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-env-options-'));
    const spec = path.join(dir, 'p.yaml');
    fs.writeFileSync(spec, 'version: 1\nkill-after: 3s\nstages:\n  - run: ["true"]\n');
    const env = { SAFE_RUN_OPTIONS: "--timeout 10m --kill-after 1s --policy last --log-dir 'a dir'" };
    const { result, report } = await runJson(['--policy', 'first-failure', '-f', spec], { env, cwd: dir });
    expect(result.code).toBe(0);
    expect(report.settings).toMatchObject({
      timeoutMs: 600_000,
      killAfterMs: 3000,
      policy: 'first-failure',
      logDir: path.join(dir, 'a dir'),
    });
  });

  it('says that an error came from SAFE_RUN_OPTIONS, with exit 125', async () => {
    const env = { SAFE_RUN_OPTIONS: '--timeout 42D' };
    const result = await runCli(['--no-facts', '--', 'true'], { env });
    expect(result.code).toBe(125);
    expect(result.stderr).toBe(
      'safe-run: SAFE_RUN_OPTIONS: --timeout: "42D" is not a duration; write seconds (10, 2.5) or a number with a unit: 250ms, 5s, 2m, 1h, 1d\n',
    );
    const unknown = await runCli(['--no-facts', '--', 'true'], { env: { SAFE_RUN_OPTIONS: '--polcy last' } });
    expect(unknown.code).toBe(125);
    expect(unknown.stderr).toMatch(/^safe-run: SAFE_RUN_OPTIONS: unknown option '--polcy'/);
  });

  it('holds options only: what to run belongs on the command line', async () => {
    const result = await runCli(['--no-facts', '--', 'true'], { env: { SAFE_RUN_OPTIONS: '-c "echo hi"' } });
    expect(result.code).toBe(125);
    expect(result.stderr).toBe(
      'safe-run: SAFE_RUN_OPTIONS: -c is refused there: give what to run (-c, -f or a command) on the command line\n',
    );
  });
});
