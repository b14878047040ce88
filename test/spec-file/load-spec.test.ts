import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadSpec } from '../../src/spec-file/load-spec.js';
import { PIPELINE_KEYS, STAGE_KEYS } from '../../src/spec-file/schema.js';
import type { Settings, StageSpec } from '../../src/types.js';
import { scratchDir } from '../helpers/index.js';

const dir = scratchDir('safe-run-spec-');
afterAll(() => dir.remove());

function load(yaml: string, name = 'pipeline.yaml') {
  return loadSpec(dir.write(name, yaml));
}

function settingsOf(lines: string): Partial<Settings> {
  return load(`version: 1\n${lines}\nstages:\n  - run: [cat]\n`).settings;
}

function stageOf(lines: string): StageSpec {
  const indented = lines
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
  const run = /^run:/m.test(lines) ? '' : '    run: [cat]\n';
  return load(`version: 1\nstages:\n  - ${`${run}${indented}`.trimStart()}\n`).stages[0]!;
}

describe('loadSpec', () => {
  test('runs the example from the issue as written', () => {
    const spec = load(`version: 1
policy: first-failure
stages:
  - name: produce
    run: [sh, -c, "printf 'a\\nb\\nc\\n'"]
  - name: select
    run: [grep, zzz]
    ok-codes: [0, 1]
  - name: count
    run: [wc, -l]
`);
    expect(spec.settings).toEqual({ policy: 'first-failure' });
    expect(spec.stages.map((stage) => [stage.name, stage.argv, stage.okCodes])).toEqual([
      ['produce', ['sh', '-c', "printf 'a\nb\nc\n'"], [0]],
      ['select', ['grep', 'zzz'], [0, 1]],
      ['count', ['wc', '-l'], [0]],
    ]);
  });

  test('returns only the settings the file sets, so flags and defaults can fill in the rest', () => {
    expect(settingsOf('')).toEqual({});
  });

  test('gives a stage without keys beyond run the neutral values', () => {
    expect(stageOf('')).toEqual({
      name: 'cat',
      argv: ['cat'],
      env: {},
      cwd: null,
      okCodes: [0],
      optional: false,
      timeoutMs: null,
      maxStdout: null,
      maxStderr: null,
    });
  });
});

// One case per key; the tests below fail when a key is added to the schema without a case here.
const pipelineCases: Record<string, [yaml: string, expected: Partial<Settings>][]> = {
  $schema: [['$schema: ../schema/spec.schema.json', {}]],
  version: [['', {}]],
  policy: [
    ['policy: pipefail', { policy: 'pipefail' }],
    ['policy: first-failure', { policy: 'first-failure' }],
    ['policy: last', { policy: 'last' }],
  ],
  sigpipe: [
    ['sigpipe: tolerate', { sigpipe: 'tolerate' }],
    ['sigpipe: fail', { sigpipe: 'fail' }],
  ],
  stdin: [
    ['stdin: inherit', { stdin: { kind: 'inherit' } }],
    ['stdin: "null"', { stdin: { kind: 'null' } }],
    [
      'stdin: null-is-a-word-only-alone',
      { stdin: { kind: 'file', path: join(dir.root, 'null-is-a-word-only-alone') } },
    ],
    ['stdin: data/in.csv', { stdin: { kind: 'file', path: join(dir.root, 'data/in.csv') } }],
    ['stdin: /etc/hostname', { stdin: { kind: 'file', path: '/etc/hostname' } }],
  ],
  timeout: [
    ['timeout: 2m', { timeoutMs: 120_000 }],
    ['timeout: 1h', { timeoutMs: 3_600_000 }],
  ],
  'idle-timeout': [['idle-timeout: 30s', { idleTimeoutMs: 30_000 }]],
  'prompt-wait': [['prompt-wait: 2s', { promptWaitMs: 2_000 }]],
  'kill-after': [['kill-after: 250ms', { killAfterMs: 250 }]],
  'drain-timeout': [['drain-timeout: 1.5s', { drainTimeoutMs: 1500 }]],
  'max-stdout': [
    ['max-stdout: 64KiB', { maxStdout: 65_536 }],
    ['max-stdout: 4096', { maxStdout: 4096 }],
    ['max-stdout: 0', { maxStdout: 0 }],
  ],
  'max-stderr': [['max-stderr: 10MB', { maxStderr: 10_000_000 }]],
  'max-log': [
    ['max-log: 1GiB', { maxLog: 1024 ** 3 }],
    ['max-log: "512"', { maxLog: 512 }],
  ],
  'on-limit': [
    ['on-limit: truncate', { onLimit: 'truncate' }],
    ['on-limit: kill', { onLimit: 'kill' }],
  ],
  'live-stdout': [
    ['live-stdout: full', { liveStdout: 'full' }],
    ['live-stdout: capped', { liveStdout: 'capped' }],
  ],
  'log-dir': [
    ['log-dir: logs', { logDir: join(dir.root, 'logs') }],
    ['log-dir: /var/tmp/logs', { logDir: '/var/tmp/logs' }],
  ],
  leftovers: [
    ['leftovers: kill', { leftovers: 'kill' }],
    ['leftovers: keep', { leftovers: 'keep' }],
  ],
  'fail-fast': [
    ['fail-fast: true', { failFast: true }],
    ['fail-fast: false', { failFast: false }],
  ],
  'on-deadlock': [
    ['on-deadlock: stop', { onDeadlock: 'stop' }],
    ['on-deadlock: wait', { onDeadlock: 'wait' }],
  ],
  mask: [
    ['mask: [API_TOKEN, db_password]', { mask: ['API_TOKEN', 'db_password'] }],
    ['mask: []', { mask: [] }],
  ],
  // The delivery keys are not Settings: test/spec/delivery-keys.test.ts covers what they give.
  output: [['output: out.txt', {}]],
  'keep-partial': [['keep-partial: true', {}]],
  expect: [['expect: [nonempty, "lines>=2"]', {}]],
  'expect-cmd': [['expect-cmd: "jq empty"', {}]],
  stages: [['', {}]],
};

describe('every pipeline key', () => {
  test('has a case here', () => {
    expect(Object.keys(pipelineCases).sort()).toEqual([...PIPELINE_KEYS].sort());
  });

  const cases = Object.entries(pipelineCases).flatMap(([key, list]) =>
    list.map(([yaml, expected]) => ({ key, yaml, expected })),
  );
  test.each(cases)('$key: "$yaml" sets $expected', ({ yaml, expected }) => {
    expect(settingsOf(yaml)).toEqual(expected);
  });
});

const stageCases: Record<string, [yaml: string, expected: Partial<StageSpec>][]> = {
  name: [['name: read-input', { name: 'read-input' }]],
  run: [
    ['run: [grep, -c, "a b"]', { argv: ['grep', '-c', 'a b'] }],
    ['run: "grep -c \'a b\'"', { argv: ['grep', '-c', 'a b'], name: 'grep' }],
    ['run: "LC_ALL=C sort -u"', { argv: ['sort', '-u'], env: { LC_ALL: 'C' } }],
  ],
  env: [
    ['env: {LC_ALL: C, EMPTY: ""}', { env: { LC_ALL: 'C', EMPTY: '' } }],
    ['run: "LC_ALL=C sort"\nenv: {TZ: UTC}', { env: { LC_ALL: 'C', TZ: 'UTC' } }],
  ],
  cwd: [
    ['cwd: .', { cwd: dir.root }],
    ['cwd: sub/dir', { cwd: join(dir.root, 'sub/dir') }],
    ['cwd: /tmp', { cwd: '/tmp' }],
  ],
  'ok-codes': [['ok-codes: [0, 1, 255]', { okCodes: [0, 1, 255] }]],
  contract: [
    ['run: grep x\ncontract: lenient', { okCodes: [0, 1] }],
    ['run: pytest\nok-codes: [0, 2]\ncontract: lenient', { okCodes: [0, 2, 5] }],
    ['run: grep x\ncontract: strict', { okCodes: [0] }],
  ],
  optional: [
    ['optional: true', { optional: true }],
    ['optional: false', { optional: false }],
  ],
  timeout: [['timeout: 90s', { timeoutMs: 90_000 }]],
  'max-stdout': [['max-stdout: 1MiB', { maxStdout: 1024 ** 2 }]],
  'max-stderr': [['max-stderr: 2k', { maxStderr: 2048 }]],
};

describe('every stage key', () => {
  test('has a case here', () => {
    expect(Object.keys(stageCases).sort()).toEqual([...STAGE_KEYS].sort());
  });

  const cases = Object.entries(stageCases).flatMap(([key, list]) =>
    list.map(([yaml, expected]) => ({ key, yaml, expected })),
  );
  test.each(cases)('$key: "$yaml" gives $expected', ({ yaml, expected }) => {
    expect(stageOf(yaml)).toMatchObject(expected);
  });
});

describe('stage names', () => {
  test('default to the program basename, made unique in order (cat, cat-2)', () => {
    const spec = load(`version: 1
stages:
  - run: [cat]
  - run: [/bin/cat]
  - run: "cat -n"
  - run: [./scripts/check.sh]
`);
    expect(spec.stages.map((stage) => stage.name)).toEqual(['cat', 'cat-2', 'cat-3', 'check.sh']);
  });

  test('never take a name declared anywhere in the file', () => {
    const spec = load(`version: 1
stages:
  - run: [cat]
  - name: cat
    run: [tac]
  - run: [cat]
`);
    expect(spec.stages.map((stage) => stage.name)).toEqual(['cat-2', 'cat', 'cat-3']);
  });
});

describe('relative paths', () => {
  test("resolve against the spec file's directory, not the directory safe-run runs in", () => {
    const path = dir.write(
      'ci/pipeline.yaml',
      'version: 1\nstdin: in.txt\nlog-dir: ../logs\nstages:\n  - run: [cat]\n    cwd: work\n',
    );
    const spec = loadSpec(path);
    expect(spec.settings.stdin).toEqual({ kind: 'file', path: join(dir.root, 'ci/in.txt') });
    expect(spec.settings.logDir).toBe(join(dir.root, 'logs'));
    expect(spec.stages[0]!.cwd).toBe(join(dir.root, 'ci/work'));
  });

  test('resolve against the current directory for a spec read from a pipe, as from <(...)', () => {
    const fifo = join(dir.root, 'spec-fifo');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn('sh', [
      '-c',
      'printf "version: 1\\nstages:\\n  - run: [cat]\\n    cwd: work\\n" > "$1"',
      'sh',
      fifo,
    ]);
    const spec = loadSpec(fifo);
    writer.kill();
    expect(spec.stages[0]!.cwd).toBe(join(process.cwd(), 'work'));
  });

  test('resolve against the current directory for a spec read from stdin', () => {
    const spec = loadSpec('-', () => 'version: 1\nlog-dir: logs\nstages:\n  - run: [cat]\n    cwd: work\n');
    expect(spec.settings.logDir).toBe(join(process.cwd(), 'logs'));
    expect(spec.stages[0]!.cwd).toBe(join(process.cwd(), 'work'));
  });
});

describe('formats', () => {
  const yaml = `# A comment, and every kind of value.
version: 1
policy: last
stdin: "null"
timeout: 5m
max-stdout: 64KiB
max-log: 1048576
fail-fast: true
mask: [TOKEN]
stages:
  - name: gen
    run: [printf, "%s\\n", one, two]
    env: {LC_ALL: C}
    ok-codes: [0, 3]
  - run: "grep -v two"
    optional: true
    timeout: 10s
    max-stderr: 1KiB
    cwd: sub
`;

  test('the YAML and JSON forms of the same pipeline give identical results', () => {
    const fromYaml = load(yaml, 'same.yaml');
    const json = {
      version: 1,
      policy: 'last',
      stdin: 'null',
      timeout: '5m',
      'max-stdout': '64KiB',
      'max-log': 1048576,
      'fail-fast': true,
      mask: ['TOKEN'],
      stages: [
        { name: 'gen', run: ['printf', '%s\n', 'one', 'two'], env: { LC_ALL: 'C' }, 'ok-codes': [0, 3] },
        { run: 'grep -v two', optional: true, timeout: '10s', 'max-stderr': '1KiB', cwd: 'sub' },
      ],
    };
    const fromJson = loadSpec(dir.write('same.json', JSON.stringify(json, null, 2)));
    expect(fromJson).toEqual(fromYaml);
    expect(fromYaml.stages[1]!.name).toBe('grep');
  });

  test('reads .yml files and, from stdin, YAML or JSON', () => {
    const fromYaml = load(yaml, 'same.yaml');
    expect(load(yaml, 'same.yml')).toEqual(fromYaml);
    expect(loadSpec('-', () => yaml)).toMatchObject({ settings: fromYaml.settings });
    const json = '{"version": 1, "stages": [{"run": ["cat"]}]}';
    expect(loadSpec('-', () => json).stages[0]!.argv).toEqual(['cat']);
  });

  test('reads YAML 1.2: yes, no and on are strings, not booleans', () => {
    expect(stageOf('env: {FLAG: yes, OTHER: on}').env).toEqual({ FLAG: 'yes', OTHER: 'on' });
  });

  test('reads a file that starts with a byte-order mark', () => {
    expect(load('\uFEFFversion: 1\nstages:\n  - run: [cat]\n').stages).toHaveLength(1);
    const path = dir.write('bom.json', '\uFEFF{"version": 1, "stages": [{"run": ["cat"]}]}');
    expect(loadSpec(path).stages).toHaveLength(1);
  });

  test('reads YAML anchors and aliases', () => {
    const spec = load(`version: 1
stages:
  - run: [sort]
    env: &locale {LC_ALL: C}
  - run: [uniq]
    env: *locale
`);
    expect(spec.stages.map((stage) => stage.env)).toEqual([{ LC_ALL: 'C' }, { LC_ALL: 'C' }]);
  });
});
