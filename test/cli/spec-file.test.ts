import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { Report, StageResult } from '../../src/types.js';
import {
  CLI_DEADLINE_MS,
  type CliOptions,
  putFile,
  ROOT,
  runCli,
  runJson,
  scratchDir,
  statuses,
  testSize,
  validate,
} from '../helpers/index.js';

// `safe-run -f` end to end: real files, the real binary, real processes.

const EXAMPLES = path.join(ROOT, 'docs/examples');
const reportSchema = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs/schema/report.schema.json'), 'utf8'));
const scratch = scratchDir('sr-spec-file-');
afterAll(() => scratch.remove());
const freshDir = scratch.fresh;
const write = (dir: string, name: string, text: string) => putFile(dir, name, text);

function stage(report: Report, name: string): StageResult {
  const found = report.stages.find((s) => s.name === name);
  if (!found) throw new Error(`no stage "${name}" in the report`);
  return found;
}

function lines(text: string): string[] {
  return text.split('\n').filter((line) => line !== '');
}

// An example as data, changed by `edit`, written into `dir`: how the tests make an example fail.
// biome-ignore lint/suspicious/noExplicitAny: a parsed YAML document, edited by hand in each test.
function variant(example: string, dir: string, edit: (doc: any) => void): string {
  const doc = parse(fs.readFileSync(path.join(EXAMPLES, example), 'utf8'));
  edit(doc);
  return write(dir, example, stringify(doc));
}

interface ExampleCase {
  env?: CliOptions['env'];
  check(report: Report, code: number | null, dir: string): void;
}

// What each example in docs/examples is documented to do. Every example must have an entry.
const EXAMPLE_OUTCOMES: Record<string, ExampleCase> = {
  'ci-test-with-log.yaml': {
    env: { DATABASE_URL: 'postgres://ci:not-a-real-password@db/test' },
    check(report, code, dir) {
      expect(code).toBe(0);
      expect(statuses(report)).toEqual(['ok', 'ok']);
      expect(stage(report, 'test').stderr.text).toBe('npm warn config: production flag is deprecated\n');
      const output = stage(report, 'log').stdout.text;
      expect(output).toContain('# pass 3\n');
      expect(fs.readFileSync(path.join(dir, 'test-output.log'), 'utf8')).toBe(output);
      expect(report.settings.mask).toEqual(['DATABASE_URL']);
      expect(report.warnings).toEqual([]);
    },
  },
  'data-export.yaml': {
    check(report, code, dir) {
      expect(code).toBe(0);
      expect(statuses(report)).toEqual(['ok', 'ok', 'ok', 'ok']);
      expect(stage(report, 'require-rows').stdout.text).toBe('2 rows exported\n');
      expect(fs.readFileSync(path.join(dir, 'export-eu.csv'), 'utf8')).toBe('1,eu,10\n3,eu,30\n');
    },
  },
  'grep-no-match-ok.yaml': {
    check(report, code) {
      expect(code).toBe(0);
      expect(statuses(report)).toEqual(['ok', 'ok', 'ok']);
      expect(stage(report, 'deprecations').exitCode).toBe(1);
      expect(stage(report, 'count').stdout.text?.trim()).toBe('0');
    },
  },
  'first-failure.yaml': {
    check(report, code) {
      expect(code).toBe(0);
      expect(report.policy).toBe('first-failure');
      expect(stage(report, 'select').exitCode).toBe(1);
      expect(stage(report, 'count').stdout.text?.trim()).toBe('0');
    },
  },
};

const examples = fs.readdirSync(EXAMPLES).filter((file) => /\.ya?ml$/.test(file));

describe('docs/examples run through safe-run -f', () => {
  it('has a documented outcome here for every example', () => {
    expect(examples.sort()).toEqual(Object.keys(EXAMPLE_OUTCOMES).sort());
  });

  it.each(examples)('%s runs as documented, writing only where it is started', async (example) => {
    const dir = freshDir();
    const before = fs.readdirSync(EXAMPLES);
    const outcome = EXAMPLE_OUTCOMES[example]!;
    const { result, report } = await runJson(['-f', path.join(EXAMPLES, example)], {
      cwd: dir,
      env: outcome.env,
    });
    outcome.check(report, result.code, dir);
    expect(validate(report, reportSchema)).toEqual([]);
    expect(fs.readdirSync(EXAMPLES)).toEqual(before);
  });

  it('ci-test-with-log.yaml fails when the tests fail, although tee succeeds, and keeps the log', async () => {
    const dir = freshDir();
    const file = variant('ci-test-with-log.yaml', dir, (doc) => {
      doc.stages[0].run[2] += 'echo "not ok 4 - a broken test"\nexit 1\n';
    });
    const { result, report } = await runJson(['-f', file], { cwd: dir });
    expect(result.code).toBe(1);
    expect(statuses(report)).toEqual(['failed', 'ok']);
    expect(report.verdict.blamedStage).toBe(1);
    expect(fs.readFileSync(path.join(dir, 'test-output.log'), 'utf8')).toContain('not ok 4 - a broken test');
  });

  it('data-export.yaml fails, and says so, when the export has no rows', async () => {
    const dir = freshDir();
    const file = variant('data-export.yaml', dir, (doc) => {
      doc.stages[1].run = ['grep', ',apac,'];
    });
    const { result, report } = await runJson(['-f', file], { cwd: dir });
    expect(result.code).toBe(1);
    expect(statuses(report)).toEqual(['ok', 'failed', 'ok', 'failed']);
    expect(stage(report, 'require-rows').stderr.text).toBe('export is empty\n');
    expect(fs.readFileSync(path.join(dir, 'export-eu.csv'), 'utf8')).toBe('');
  });

  it('the live output of an example is its last stage stdout, with the table on stderr', async () => {
    const result = await runCli(['--no-facts', '-f', path.join(EXAMPLES, 'first-failure.yaml')]);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe('0');
    expect(result.stderr).toContain('safe-run: ok, exit 0 (policy first-failure: satisfied)');
  });
});

// What must not differ between two runs of the same pipeline: everything but pids and times.
function outcomeOf(report: Report) {
  return {
    exitCode: report.exitCode,
    verdict: report.verdict,
    settings: report.settings,
    stages: report.stages.map(({ pid, startedAt, durationMs, ...rest }) => rest),
  };
}

const RICH_PIPELINE = {
  version: 1,
  policy: 'pipefail',
  stdin: 'null',
  'max-stderr': 200,
  stages: [
    {
      name: 'produce',
      run: ['sh', '-c', 'printf "b\\na\\nc\\n"; echo "hello from $GREETING" >&2'],
      env: { GREETING: 'produce' },
    },
    { name: 'sort', run: 'LC_ALL=C sort' },
    {
      name: 'noisy',
      run: ['sh', '-c', 'cat; pwd >&2; printf "%0500d\\n" 0 >&2; exit 3'],
      cwd: '.',
      optional: true,
    },
    { name: 'count-z', run: ['grep', '-c', 'z'], 'ok-codes': [0, 1] },
  ],
};

describe('the YAML and JSON forms of a pipeline', () => {
  it('give identical stage results through the real CLI', async () => {
    const dir = freshDir();
    const yaml = write(dir, 'pipeline.yaml', stringify(RICH_PIPELINE));
    const json = write(dir, 'pipeline.json', JSON.stringify(RICH_PIPELINE, null, 2));
    const fromYaml = await runJson(['-f', yaml]);
    const fromJson = await runJson(['-f', json]);
    expect(outcomeOf(fromJson.report)).toEqual(outcomeOf(fromYaml.report));
    expect(fromJson.result.code).toBe(fromYaml.result.code);
    // And the pipeline did what it says, so that the comparison is about something.
    expect(fromYaml.result.code).toBe(0);
    expect(statuses(fromYaml.report)).toEqual(['ok', 'ok', 'failed', 'ok']);
    expect(stage(fromYaml.report, 'count-z').stdout.text).toBe('0\n');
    expect(stage(fromYaml.report, 'noisy').stderr.truncated).toBe(true);
    expect(stage(fromYaml.report, 'noisy').stderr.text).toContain(dir);
  });

  it.each(examples)('give identical stage results for %s', async (example) => {
    const dir = freshDir();
    const doc = parse(fs.readFileSync(path.join(EXAMPLES, example), 'utf8'));
    const yaml = write(dir, example, stringify(doc));
    const json = write(dir, example.replace(/\.ya?ml$/, '.json'), JSON.stringify(doc));
    const env = EXAMPLE_OUTCOMES[example]?.env;
    const fromYaml = await runJson(['-f', yaml], { cwd: dir, env });
    const fromJson = await runJson(['-f', json], { cwd: dir, env });
    expect(outcomeOf(fromJson.report)).toEqual(outcomeOf(fromYaml.report));
  });
});

describe('an invalid spec', () => {
  function brokenSpec(dir: string): { file: string; marker: string } {
    const marker = path.join(dir, 'started');
    const file = write(
      dir,
      'pipeline.yaml',
      [
        'version: 1',
        'policy: first-falure',
        'stages:',
        `  - run: [touch, ${marker}]`,
        '  - name: select',
        '    runn: [grep, a]',
        '  - run: "sort | uniq"',
        '',
      ].join('\n'),
    );
    return { file, marker };
  }

  it('exits 125 with one line per problem, and starts nothing', async () => {
    const dir = freshDir();
    const { file, marker } = brokenSpec(dir);
    const result = await runCli(['--no-facts', '-f', file]);
    expect(result.code).toBe(125);
    expect(result.stdout).toBe('');
    expect(lines(result.stderr)).toEqual([
      `safe-run: ${file}: policy: expected one of pipefail, first-failure, last; got the string "first-falure"`,
      `safe-run: ${file}: stages[1].run: required: the command to run, as a non-empty array of strings, or one string in the inline grammar`,
      `safe-run: ${file}: stages[1].runn: unknown key; did you mean "run"?`,
      `safe-run: ${file}: stages[2].run: expected one stage, but "sort | uniq" is a pipeline of 2; declare each as its own stage`,
    ]);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('prints a JSON error document with --json, and the problems on stderr', async () => {
    const dir = freshDir();
    const { file, marker } = brokenSpec(dir);
    const result = await runCli(['--json', '--no-facts', '-f', file]);
    expect(result.code).toBe(125);
    const document = JSON.parse(result.stdout);
    expect(document).toMatchObject({
      ok: false,
      exitCode: 125,
      error: { code: 'spec.invalid', column: null },
    });
    expect(document.error.message.split('\n')).toHaveLength(4);
    expect(lines(result.stderr)).toHaveLength(4);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('read from stdin is named <stdin> in its messages', async () => {
    const result = await runCli(['--no-facts', '-f', '-'], { input: 'version: 2\nstages: []\n' });
    expect(result.code).toBe(125);
    expect(lines(result.stderr)).toEqual([
      'safe-run: <stdin>: version: expected 1, the only spec version this safe-run reads; got the number 2',
      'safe-run: <stdin>: stages: expected a non-empty list of stages; got an empty list',
    ]);
  });

  it('with a YAML syntax error gives its line and column', async () => {
    const dir = freshDir();
    const file = write(dir, 'broken.yaml', 'version: 1\nstages:\n  - run: [cat\n  - run: [wc]\n');
    const result = await runCli(['--no-facts', '-f', file]);
    expect(result.code).toBe(125);
    expect(result.stderr).toMatch(new RegExp(`^safe-run: ${file}: line \\d+, column \\d+: `));
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('that is not UTF-8 text (a binary, a Latin-1 byte) is refused in one line, from a file, stdin or a FIFO', async () => {
    const dir = freshDir();
    const latin = Buffer.from('version: 1\nstages:\n  - run: [echo, "caf\xe9"]\n', 'latin1');
    const file = write(dir, 'latin.yaml', latin.toString('latin1'));
    fs.writeFileSync(file, latin);
    const binary = path.join(dir, 'binary.yaml');
    fs.writeFileSync(
      binary,
      Buffer.concat([Buffer.from('version: 1\n'), Buffer.from([0, 0xff, 0x0a, 0x41])]),
    );
    const notText = '; a spec file is YAML or JSON in UTF-8\n';
    const fromFile = await runCli(['--no-facts', '-f', file]);
    expect([fromFile.code, fromFile.stdout]).toEqual([125, '']);
    expect(fromFile.stderr).toBe(
      `safe-run: ${file}: is not text: a byte that is not UTF-8 at offset 39${notText}`,
    );
    const fromStdin = await runCli(['--no-facts', '-f', '-'], { input: latin });
    expect([fromStdin.code, fromStdin.stdout]).toEqual([125, '']);
    expect(fromStdin.stderr).toBe(
      `safe-run: <stdin>: is not text: a byte that is not UTF-8 at offset 39${notText}`,
    );
    const nul = await runCli(['--no-facts', '-f', binary]);
    expect(nul.code).toBe(125);
    expect(nul.stderr).toBe(`safe-run: ${binary}: is not text: a NUL byte at offset 11${notText}`);
  });

  it('that does not exist is said so in one line', async () => {
    const result = await runCli(['--no-facts', '-f', 'no-such-pipeline.yaml']);
    expect(result.code).toBe(125);
    expect(result.stderr).toBe('safe-run: no-such-pipeline.yaml: no such file\n');
  });
});

describe('durations', () => {
  it('are refused past the longest a Node timer can wait, in the same words from a flag and a file', async () => {
    const dir = freshDir();
    const marker = path.join(dir, 'started');
    const fromFlag = await runCli(['--no-facts', '--timeout', '600h', '--', 'touch', marker]);
    expect(fromFlag.code).toBe(125);
    const reason =
      '"600h" is too long; the longest is 596h (about 24 days), the longest a Node timer can wait';
    expect(fromFlag.stderr).toBe(`safe-run: --timeout: ${reason}\n`);

    const file = write(
      dir,
      'pipeline.yaml',
      `version: 1\ntimeout: 600h\nstages:\n  - run: [touch, ${marker}]\n`,
    );
    const fromFile = await runCli(['--no-facts', '-f', file]);
    expect(fromFile.code).toBe(125);
    expect(fromFile.stderr).toBe(`safe-run: ${file}: timeout: ${reason}\n`);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('up to that limit are accepted from a flag', async () => {
    const { result, report } = await runJson(['--timeout', '596h', '--kill-after', '596h', '--', 'true']);
    expect(result.code).toBe(0);
    expect(report.settings.timeoutMs).toBe(596 * 3_600_000);
  });
});

describe('command-line flags and the spec file', () => {
  const SPEC = [
    'version: 1',
    'policy: first-failure',
    'sigpipe: fail',
    'timeout: 1m',
    'kill-after: 3s',
    'max-stdout: 1KiB',
    'live-stdout: capped',
    'leftovers: keep',
    'mask: [FILE_MASKED]',
    'stdin: "null"',
    'stages:',
    '  - name: fails',
    "    run: [sh, -c, 'exit 3']",
    '  - name: last',
    '    run: [cat]',
    '',
  ].join('\n');

  it('flags override the file, the file overrides the defaults, and report settings show the result', async () => {
    const file = write(freshDir(), 'pipeline.yaml', SPEC);
    const { result, report } = await runJson([
      '-f',
      file,
      '--policy',
      'last',
      '--timeout',
      '30s',
      '--max-stdout',
      '2KiB',
      '--live-stdout',
      'full',
      '--mask',
      'FLAG_MASKED',
    ]);
    expect(report.settings).toMatchObject({
      // from the flags
      policy: 'last',
      timeoutMs: 30_000,
      maxStdout: 2048,
      liveStdout: 'full',
      mask: ['FLAG_MASKED'],
      // from the file
      sigpipe: 'fail',
      killAfterMs: 3000,
      leftovers: 'keep',
      stdin: { kind: 'null' },
      // defaults
      drainTimeoutMs: 2000,
      maxStderr: 32 * 1024,
      onLimit: 'truncate',
      failFast: false,
      facts: null,
    });
    // The overriding policy is the one applied: only the last stage decides.
    expect(report.policy).toBe('last');
    expect(statuses(report)).toEqual(['failed', 'ok']);
    expect(result.code).toBe(0);
  });

  it('without flags, the report settings are the file values', async () => {
    const file = write(freshDir(), 'pipeline.yaml', SPEC);
    const { result, report } = await runJson(['-f', file]);
    expect(report.settings).toMatchObject({
      policy: 'first-failure',
      timeoutMs: 60_000,
      maxStdout: 1024,
      liveStdout: 'capped',
      mask: ['FILE_MASKED'],
    });
    expect(result.code).toBe(3);
  });

  it('--ok-codes overrides a stage ok-codes from the file', async () => {
    const file = write(freshDir(), 'pipeline.yaml', SPEC);
    const { result, report } = await runJson(['-f', file, '--ok-codes', 'fails=0,3']);
    expect(statuses(report)).toEqual(['ok', 'ok']);
    expect(result.code).toBe(0);
  });
});

describe('live-stdout in a spec file', () => {
  const spec = (mode: string) =>
    `version: 1\nmax-stdout: 300\nlive-stdout: ${mode}\nstages:\n  - run: [seq, "1", "3000"]\n`;
  const whole = `${Array.from({ length: 3000 }, (_, i) => i + 1).join('\n')}\n`;

  it('capped shows the last stage stdout only up to max-stdout, then its tail', async () => {
    const file = write(freshDir(), 'pipeline.yaml', spec('capped'));
    const result = await runCli(['--no-facts', '-f', file]);
    expect(result.code).toBe(0);
    expect(result.stdout.length).toBeLessThan(1000);
    expect(result.stdout).toContain('not shown live');
    expect(result.stdout.startsWith('1\n2\n3\n')).toBe(true);
    expect(result.stdout.endsWith('2999\n3000\n')).toBe(true);
  });

  it('full streams the whole of it', async () => {
    const file = write(freshDir(), 'pipeline.yaml', spec('full'));
    const result = await runCli(['--no-facts', '-f', file]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(whole);
  });

  it('is overridden by --live-stdout', async () => {
    const file = write(freshDir(), 'pipeline.yaml', spec('capped'));
    const result = await runCli(['--no-facts', '-f', file, '--live-stdout', 'full']);
    expect(result.stdout).toBe(whole);
  });
});

describe('-f - (the spec on stdin)', () => {
  const SPEC = 'version: 1\nstages:\n  - run: [wc, -c]\n';

  it('gives the first stage no stdin when neither the spec nor --stdin says otherwise', async () => {
    const { result, report } = await runJson(['-f', '-'], { input: SPEC });
    expect(result.code).toBe(0);
    expect(report.settings.stdin).toEqual({ kind: 'null' });
    expect(report.stages[0]!.stdout.text?.trim()).toBe('0');
  });

  it('keeps the stdin the spec asks for', async () => {
    const { report } = await runJson(['-f', '-'], { input: `stdin: inherit\n${SPEC}` });
    expect(report.settings.stdin).toEqual({ kind: 'inherit' });
  });

  it('keeps the stdin --stdin asks for', async () => {
    const dir = freshDir();
    const input = write(dir, 'input.txt', 'twelve bytes');
    const inherit = await runJson(['-f', '-', '--stdin', 'inherit'], { input: SPEC });
    expect(inherit.report.settings.stdin).toEqual({ kind: 'inherit' });
    const fromFile = await runJson(['-f', '-', '--stdin', input], { input: SPEC });
    expect(fromFile.report.settings.stdin).toEqual({ kind: 'file', path: input });
    expect(fromFile.report.stages[0]!.stdout.text?.trim()).toBe('12');
  });

  it('resolves relative paths against the current directory', async () => {
    const dir = freshDir();
    fs.mkdirSync(path.join(dir, 'sub'));
    const { report } = await runJson(['-f', '-'], {
      cwd: dir,
      input: 'version: 1\nstages:\n  - run: [pwd]\n    cwd: sub\n',
    });
    expect(report.stages[0]!.stdout.text).toBe(`${fs.realpathSync(path.join(dir, 'sub'))}\n`);
  });
});

describe('safe-run schema', () => {
  it('prints the JSON Schema published as docs/schema/spec.schema.json', async () => {
    const result = await runCli(['schema']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const published = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs/schema/spec.schema.json'), 'utf8'));
    expect(JSON.parse(result.stdout)).toEqual(published);
  });

  it('refuses words it does not take in one line, exit 125, as facts and mcp do', async () => {
    const result = await runCli(['schema', 'pipeline.yaml']);
    expect([result.code, result.stdout]).toEqual([125, '']);
    expect(result.stderr).toBe(
      'safe-run: schema takes no arguments; got "pipeline.yaml" (usage: safe-run schema)\n',
    );
  });
});

// Generated documents at the CLI: each stage only creates its own file, so a file that exists
// after an exit 125 is a stage that was started when nothing should have been. A document is a valid
// one with up to three changes that are likely (not certain) to break it.
describe('any generated spec document', () => {
  type Doc = Record<string, unknown> & { stages: Record<string, unknown>[] };
  const opt = <T>(values: T[]) => fc.option(fc.constantFrom(...values), { nil: undefined });
  const stageArb = fc.record(
    {
      named: fc.boolean(),
      'ok-codes': opt([[0], [0, 1]]),
      optional: opt([true, false]),
      timeout: opt(['5s', '2m']),
      env: opt([{ A: '1' }]),
      cwd: opt(['.', 'no-such-dir']),
      inline: fc.boolean(),
    },
    { requiredKeys: ['named', 'inline'] },
  );
  const pipelineArb = fc.record(
    {
      policy: opt(['pipefail', 'first-failure', 'last']),
      timeout: opt(['30s', '1m']),
      'max-stdout': opt(['64KiB', 0, 100]),
      'live-stdout': opt(['full', 'capped']),
      stdin: opt(['null', 'inherit', 'missing-input.txt']),
      'log-dir': opt(['logs']),
      'fail-fast': opt([true, false]),
    },
    { requiredKeys: [] },
  );
  const breakArb = fc.oneof(
    fc.record({
      stage: fc.constant(null),
      key: fc.constantFrom('version', 'policy', 'timeout', 'max-stdout', 'live-stdout', 'polcy', 'stages'),
      value: fc.constantFrom<unknown>(undefined, 2, '1', 'first-falure', '600h', -1, 'all', [], null),
    }),
    fc.record({
      stage: fc.nat(2),
      key: fc.constantFrom(
        'name',
        'ok-codes',
        'optional',
        'timeout',
        'env',
        'cwd',
        'runn',
        'okCodes',
        'policy',
      ),
      value: fc.constantFrom<unknown>(undefined, 'bad name', 'stage-0', [], [256], 'yes', '5', { A: 1 }, ''),
    }),
  );
  const generatedArb = fc.record({
    pipeline: pipelineArb,
    stages: fc.array(stageArb, { minLength: 1, maxLength: 3 }),
    breaks: fc.oneof(fc.constant([]), fc.array(breakArb, { minLength: 1, maxLength: 3 })),
  });

  function render(generated: GeneratedDoc, dir: string): Doc {
    const doc: Doc = {
      version: 1,
      ...generated.pipeline,
      stages: generated.stages.map(({ named, inline, ...keys }, i) => {
        const marker = path.join(dir, `started-${i}`);
        return {
          ...(named ? { name: `stage-${i}` } : {}),
          run: inline ? `touch ${marker}` : ['touch', marker],
          ...keys,
        };
      }),
    };
    for (const change of generated.breaks) {
      const target = change.stage === null ? doc : doc.stages[change.stage % doc.stages.length];
      if (target === undefined) continue;
      if (change.value === undefined) delete target[change.key];
      else target[change.key] = change.value;
    }
    return doc;
  }
  type GeneratedDoc = typeof generatedArb extends fc.Arbitrary<infer T> ? T : never;

  const RUNS = testSize(12, 25, 'SAFE_RUN_SPEC_RUNS');
  it(
    'either runs (a JSON report) or exits 125 with a message and starts nothing',
    async () => {
      const seen = { run: 0, refused: 0 };
      await fc.assert(
        fc.asyncProperty(generatedArb, fc.constantFrom('yaml', 'json'), async (generated, format) => {
          const dir = freshDir();
          const document = render(generated, dir);
          const text = format === 'json' ? JSON.stringify(document) : stringify(document);
          const file = write(dir, `pipeline.${format}`, text);
          const markers = () => fs.readdirSync(dir).filter((name) => name.startsWith('started-'));
          const result = await runCli(['--json', '--no-facts', '-f', file], { cwd: dir });
          if (result.code === 125) {
            seen.refused += 1;
            // Under --json a refusal is a JSON error document, never a report.
            expect(JSON.parse(result.stdout)).toMatchObject({
              ok: false,
              exitCode: 125,
              error: { column: null },
            });
            expect(lines(result.stderr).length).toBeGreaterThan(0);
            for (const line of lines(result.stderr)) expect(line).toMatch(/^safe-run: \S/);
            expect(markers()).toEqual([]);
            return;
          }
          seen.run += 1;
          const report = JSON.parse(result.stdout) as Report;
          expect(validate(report, reportSchema)).toEqual([]);
          expect(report.exitCode).toBe(result.code);
          expect(report.stages).toHaveLength(Array.isArray(document.stages) ? document.stages.length : -1);
          for (const [i, outcome] of report.stages.entries()) {
            const started = fs.existsSync(path.join(dir, `started-${i}`));
            if (outcome.status === 'ok') expect(started).toBe(true);
            if (outcome.status === 'not-started' || outcome.status === 'skipped') expect(started).toBe(false);
          }
        }),
        { numRuns: RUNS, seed: 20_240_601 },
      );
      // Both outcomes are exercised, or the property says little.
      expect(seen.run).toBeGreaterThan(2);
      expect(seen.refused).toBeGreaterThan(2);
    },
    // One CLI run after another: the limit is theirs added up, not one fixed figure for all of them.
    RUNS * CLI_DEADLINE_MS,
  );
});
