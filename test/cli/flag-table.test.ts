import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { applyEnvOptions } from '../../src/cli/env-options.js';
import { CLI_FLAGS, type CliFlagKey, cliFlagRows } from '../../src/cli/flag-table.js';
import { type CliOptions, parseCli } from '../../src/cli/options.js';
import { shownFlag } from '../../src/cli/program-options.js';
import { printRefusal } from '../../src/cli/refusal.js';
import { isRequestError, RequestError } from '../../src/errors.js';
import { runCli, runJson } from '../helpers/cli.js';
import { readValidJunit } from '../helpers/junit-schema.js';

const help = parseCli(['--help'], '0.0.0').answered ?? '';

// The words that give a row a value, and the value CliOptions then holds.
function sample(key: CliFlagKey): { words: string[]; value: unknown } {
  const row = CLI_FLAGS[key];
  const flag = shownFlag(key);
  if (!row.flags.includes('<')) return { words: [flag], value: !flag.startsWith('--no-') };
  const word = row.kind.choices ? row.kind.choices[row.kind.choices.length - 1]! : `${key}-value`;
  return { words: [flag, word], value: row.kind.repeatable ? [word] : word };
}

function fromEnv(text: string, cli: string[] = ['--', 'true']): CliOptions {
  const { options } = parseCli(cli, '0');
  return applyEnvOptions(options, { SAFE_RUN_OPTIONS: text }).options;
}

describe('the table of CLI-only flags', () => {
  const rows = cliFlagRows();

  it('names each row by the attribute commander gives its flag', () => {
    for (const row of rows) {
      const option = new Option(row.flags);
      expect(option.attributeName(), row.flags).toBe(row.key);
    }
  });

  it('gives --help every flag that is not hidden, in table order, with its help', () => {
    let from = 0;
    for (const row of rows) {
      const flag = shownFlag(row.key);
      const at = help.indexOf(`  ${row.flags.split(' <')[0]}`, from);
      if (row.hidden) {
        expect(help, flag).not.toContain(flag);
        continue;
      }
      expect(at, `${flag} in --help after the row before it`).toBeGreaterThan(from);
      from = at;
      const firstWords = row.help.split(' ').slice(0, 4).join(' ');
      expect(help.slice(at, at + 200), flag).toContain(firstWords);
      if (row.negation) expect(help).toContain(`--no-${flag.slice(2)}`);
    }
  });

  it('reads each flag from the command line into CliOptions under its key', () => {
    for (const row of rows) {
      if (row.key === 'command' || row.key === 'file') continue;
      const { words, value } = sample(row.key);
      expect(parseCli([...words, '--', 'true'], '0').options[row.key], row.flags).toEqual(value);
    }
  });

  it('honours every flag in SAFE_RUN_OPTIONS below the command line, or refuses it naming it', () => {
    for (const row of rows) {
      const { words, value } = sample(row.key);
      const text = words.map((word) => `'${word}'`).join(' ');
      if (row.fromEnv !== 'default') {
        let refused: unknown = null;
        try {
          fromEnv(text);
        } catch (error) {
          refused = error;
        }
        expect(isRequestError(refused), row.flags).toBe(true);
        expect((refused as Error).message).toBe(
          `SAFE_RUN_OPTIONS: ${shownFlag(row.key)} is refused there: ${row.fromEnv.refuse}`,
        );
        continue;
      }
      expect(fromEnv(text)[row.key], `${row.flags} from SAFE_RUN_OPTIONS`).toEqual(value);
      if (row.kind.repeatable) {
        const both = fromEnv(text, [words[0]!, 'cli', '--', 'true'])[row.key];
        expect(both, `${row.flags}: the environment's values, then the command line's`).toEqual([
          words[1],
          'cli',
        ]);
      } else if (row.kind.choices && row.kind.choices.length > 1) {
        const other = row.kind.choices[0]!;
        expect(fromEnv(text, [words[0]!, other, '--', 'true'])[row.key], row.flags).toBe(other);
      }
    }
  });

  it('lets a refusal see the flags after any flag that takes a value (--json, --mask)', () => {
    for (const row of rows) {
      if (!row.flags.includes(' <')) continue;
      for (const flag of row.flags.split(' <')[0]!.split(', ')) {
        const out: string[] = [];
        const err: string[] = [];
        const sink = (into: string[]) =>
          new Writable({
            write(chunk: Buffer, _encoding, done) {
              into.push(chunk.toString());
              done();
            },
          });
        const args = [flag, 'value', '--json', 'compact', '--mask', 'TOKEN', '-c', 'x'];
        printRefusal(new RequestError('usage.value', 'refused, with s3cr3t-value'), args, {
          stdout: sink(out),
          stderr: sink(err),
          env: { TOKEN: 's3cr3t-value' },
        });
        expect(JSON.parse(out.join('')).error, flag).toMatchObject({ code: 'usage.value' });
        expect(err.join(''), flag).toBe('safe-run: refused, with ***\n');
      }
    }
  });

  it('lets the command line turn off a switch the environment turned on', () => {
    expect(fromEnv('--timestamps', ['--no-timestamps', '--', 'true']).timestamps).toBe(false);
    expect(fromEnv('--no-timestamps', ['--timestamps', '--', 'true']).timestamps).toBe(true);
    expect(fromEnv('--no-live').live).toBe(false);
    expect(parseCli(['--', 'true'], '0').options.live).toBeUndefined();
  });
});

describe('CLI-only flags in SAFE_RUN_OPTIONS, end to end', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-flag-env-'));

  it('runs -c text under bash with --fallback bash from the environment', async () => {
    const env = { SAFE_RUN_OPTIONS: '--fallback bash' };
    const { result, report } = await runJson(['-c', 'f=<(true); echo a; echo b'], { env });
    expect(result.code).toBe(0);
    expect(report.stages[0]!.stdout.text).toBe('a\nb\n');
  });

  it('writes --junit, obeys --ci none and --no-timestamps from the environment', async () => {
    const junit = path.join(dir, 'env.xml');
    const env = {
      SAFE_RUN_OPTIONS: `--junit '${junit}' --ci none --no-timestamps --no-facts`,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
    };
    const result = await runCli(['--', 'sh', '-c', 'echo to-stderr >&2'], { env });
    expect(result.code).toBe(0);
    expect(await readValidJunit(junit)).toContain('<testcase');
    expect(result.stderr).not.toContain('::group::');
    expect(result.stderr).toMatch(/^to-stderr$/m);
    expect(result.stderr).not.toMatch(/^\d\d:\d\d:\d\d\.\d{3} /m);
  });

  it('says a heartbeat with --heartbeat from the environment', async () => {
    const env = { SAFE_RUN_OPTIONS: '--heartbeat 200ms --no-facts' };
    const result = await runCli(['-c', 'sleep 1.5'], { env });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('safe-run: heartbeat: stage 1 "sleep"');
  });

  it('gives --agent its defaults from the environment', async () => {
    const { report } = await runJson(['--', 'true'], { env: { SAFE_RUN_OPTIONS: '--agent' } });
    expect(report.settings.promptWaitMs).toBe(2000);
    expect(report.settings.stdin).toEqual({ kind: 'null' });
  });

  it('refuses --output there with exit 125, naming it', async () => {
    const env = { SAFE_RUN_OPTIONS: '--output out.txt' };
    const result = await runCli(['--no-facts', '--', 'true'], { env });
    expect(result.code).toBe(125);
    expect(result.stderr).toBe(
      "safe-run: SAFE_RUN_OPTIONS: --output is refused there: it names one run's product; give it on the command line of that run\n",
    );
  });
});
