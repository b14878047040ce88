import { chmodSync } from 'node:fs';
import { afterAll, describe, expect, test } from 'vitest';
import { loadSpec, parseSpec } from '../../src/spec-file/load-spec.js';
import { linesOf, requestErrorOf, scratchDir } from '../helpers/index.js';

const dir = scratchDir('safe-run-spec-');
afterAll(() => dir.remove());

function problems(yaml: string): string[] {
  return linesOf(() => parseSpec(yaml, { label: 'pipeline.yaml', format: 'yaml', baseDir: dir.root }));
}

function problemsIn(stageYaml: string): string[] {
  return problems(`version: 1\nstages:\n  - run: [cat]\n  - ${stageYaml.replace(/\n/g, '\n    ')}\n`);
}

const STAGE_OK = 'stages:\n  - run: [cat]\n';

describe('an invalid spec', () => {
  test('is one RequestError with code spec.invalid listing every problem, one line each with its path', () => {
    const error = requestErrorOf(() =>
      parseSpec('version: 1\npolicy: fastest\nstages:\n  - run: [cat]\n  - runn: [wc]\n  - run: 5\n', {
        label: 'pipeline.yaml',
        format: 'yaml',
        baseDir: dir.root,
      }),
    );
    expect(error.code).toBe('spec.invalid');
    expect(error.message.split('\n')).toEqual([
      'pipeline.yaml: policy: expected one of pipefail, first-failure, last; got the string "fastest"',
      'pipeline.yaml: stages[1].run: required: the command to run, as a non-empty array of strings, or one string in the inline grammar',
      'pipeline.yaml: stages[1].runn: unknown key; did you mean "run"?',
      'pipeline.yaml: stages[2].run: expected a non-empty array of strings, or one string in the inline grammar; got the number 5',
    ]);
  });

  test('prefixes every line with the file name as given', () => {
    const path = dir.write('sub/bad.yaml', 'version: 1\nstages: []\npolicy: x\n');
    const lines = linesOf(() => loadSpec(path));
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line.startsWith(`${path}: `)).toBe(true);
  });

  test('names stdin <stdin>', () => {
    expect(linesOf(() => loadSpec('-', () => 'version: 1\nstages: []\n'))).toEqual([
      '<stdin>: stages: expected a non-empty list of stages; got an empty list',
    ]);
  });

  test('says which required key is missing', () => {
    expect(problems('stages:\n  - run: [cat]\n')).toEqual([
      'pipeline.yaml: version: required: add "version: 1"',
    ]);
    expect(problems('version: 1\n')).toEqual([
      'pipeline.yaml: stages: required: list the stages under "stages"',
    ]);
  });

  test('refuses any version but 1', () => {
    expect(problems(`version: 2\n${STAGE_OK}`)).toEqual([
      'pipeline.yaml: version: expected 1, the only spec version this safe-run reads; got the number 2',
    ]);
    expect(problems(`version: "1"\n${STAGE_OK}`)).toEqual([
      'pipeline.yaml: version: expected 1, the only spec version this safe-run reads; got the string "1"',
    ]);
  });

  test('refuses a document that is not a mapping', () => {
    expect(problems('- run: [cat]\n')).toEqual([
      'pipeline.yaml: expected a mapping with "version" and "stages"; got a list',
    ]);
    expect(problems('hello\n')).toEqual([
      'pipeline.yaml: expected a mapping with "version" and "stages"; got the string "hello"',
    ]);
  });

  test('refuses a stage that is not a mapping', () => {
    expect(problemsIn('cat')).toEqual([
      'pipeline.yaml: stages[1]: expected a stage: a mapping with at least "run"; got the string "cat"',
    ]);
  });
});

describe('unknown keys', () => {
  test('are refused with a did-you-mean from edit distance', () => {
    expect(problemsIn('runn: [wc]\n  run: [wc]'.replace('\n  ', '\n'))).toEqual([
      'pipeline.yaml: stages[1].runn: unknown key; did you mean "run"?',
    ]);
    expect(problems(`version: 1\ntimout: 5s\n${STAGE_OK}`)).toEqual([
      'pipeline.yaml: timout: unknown key; did you mean "timeout"?',
    ]);
  });

  test('in camelCase or snake_case point to the kebab-case key', () => {
    expect(problemsIn('run: [wc]\nokCodes: [1]')).toEqual([
      'pipeline.yaml: stages[1].okCodes: unknown key; did you mean "ok-codes"?',
    ]);
    expect(problems(`version: 1\nfail_fast: true\n${STAGE_OK}`)).toEqual([
      'pipeline.yaml: fail_fast: unknown key; did you mean "fail-fast"?',
    ]);
  });

  test('at the wrong level say where they belong', () => {
    expect(problems(`version: 1\nok-codes: [0]\n${STAGE_OK}`)).toEqual([
      'pipeline.yaml: ok-codes: unknown key at the pipeline level; "ok-codes" belongs in a stage under "stages"',
    ]);
    expect(problemsIn('run: [wc]\npolicy: last')).toEqual([
      'pipeline.yaml: stages[1].policy: unknown key in a stage; "policy" is a pipeline-level key',
    ]);
  });

  test('far from every key list the keys there are', () => {
    expect(problemsIn('run: [wc]\ncommand: x')).toEqual([
      'pipeline.yaml: stages[1].command: unknown key; expected one of: name, run, env, cwd, ok-codes, contract, optional, timeout, max-stdout, max-stderr',
    ]);
  });

  test('with odd characters are quoted in the path, on one line', () => {
    expect(problems(`version: 1\n"two\\nlines": 1\n${STAGE_OK}`)).toEqual([
      'pipeline.yaml: ["two\\nlines"]: unknown key; expected one of: $schema, version, policy, sigpipe, stdin, timeout, idle-timeout, prompt-wait, kill-after, drain-timeout, max-stdout, max-stderr, max-log, on-limit, live-stdout, log-dir, leftovers, fail-fast, on-deadlock, mask, output, keep-partial, expect, expect-cmd, stages',
    ]);
  });
});

describe('values', () => {
  test('run must be a non-empty array of strings or one string', () => {
    expect(problemsIn('run: []')).toEqual([
      'pipeline.yaml: stages[1].run: expected a non-empty array of strings; got an empty list',
    ]);
    expect(problemsIn('run: [head, -n, 5]')).toEqual([
      'pipeline.yaml: stages[1].run[2]: expected a string; got the number 5: quote it, "5"',
    ]);
    expect(problemsIn('run: [true]')).toEqual([
      'pipeline.yaml: stages[1].run[0]: expected a string; got true: quote it, "true"',
    ]);
    expect(problemsIn('run: [grep, {a: b}]')).toEqual([
      'pipeline.yaml: stages[1].run[1]: expected a string; got a mapping',
    ]);
    expect(problemsIn('run: ["", x]')).toEqual([
      'pipeline.yaml: stages[1].run[0]: the program name is empty',
    ]);
    expect(problemsIn('run: ""')).toEqual([
      'pipeline.yaml: stages[1].run: expected a non-empty array of strings, or one string in the inline grammar; got the string ""',
    ]);
    expect(problemsIn('run: {cmd: x}')).toEqual([
      'pipeline.yaml: stages[1].run: expected a non-empty array of strings, or one string in the inline grammar; got a mapping',
    ]);
  });

  test('run as one string must be exactly one stage of the inline grammar', () => {
    expect(problemsIn('run: "sort | uniq"')).toEqual([
      'pipeline.yaml: stages[1].run: expected one stage, but "sort | uniq" is a pipeline of 2; declare each as its own stage',
    ]);
    const [line] = problemsIn('run: "echo $HOME"');
    expect(line).toMatch(/^pipeline\.yaml: stages\[1\]\.run: unquoted "\$" at column 6 /);
    expect(line).toContain('or write run: [bash, -c, "..."]');
    expect(problemsIn('run: "FOO=1"')[0]).toMatch(
      /^pipeline\.yaml: stages\[1\]\.run: stage 1 at column 1 only assigns/,
    );
  });

  test('a variable set both in run and in env is refused', () => {
    expect(problemsIn('run: "LC_ALL=C sort"\nenv: {LC_ALL: POSIX}')).toEqual([
      'pipeline.yaml: stages[1].env.LC_ALL: also set in "run"; set it in one place',
    ]);
  });

  test('env values must be strings: numbers and booleans are refused, not coerced', () => {
    expect(problemsIn('run: [x]\nenv: {PORT: 8080, DEBUG: true, VERSION: 1.10, EMPTY: null}')).toEqual([
      'pipeline.yaml: stages[1].env.PORT: expected a string; got the number 8080: quote it, "8080"',
      'pipeline.yaml: stages[1].env.DEBUG: expected a string; got true: quote it, "true"',
      'pipeline.yaml: stages[1].env.VERSION: expected a string; got the number 1.1: quote it, "1.1"',
      'pipeline.yaml: stages[1].env.EMPTY: expected a string; got nothing',
    ]);
  });

  test('env names must be variable names', () => {
    expect(problemsIn('run: [x]\nenv: {"A-B": x, "1X": y, "A=B": z}')).toHaveLength(3);
    expect(problemsIn('run: [x]\nenv: [A=1]')).toEqual([
      'pipeline.yaml: stages[1].env: expected a mapping of variable names to string values; got a list',
    ]);
  });

  test('durations are read as coreutils timeout reads them: a bare number is seconds', () => {
    const spec = parseSpec(`version: 1\ntimeout: 5\nkill-after: .5\nidle-timeout: 1d\n${STAGE_OK}`, {
      label: 'pipeline.yaml',
      format: 'yaml',
      baseDir: '/',
    });
    expect(spec.settings).toMatchObject({ timeoutMs: 5000, killAfterMs: 500, idleTimeoutMs: 86_400_000 });
    expect(problems(`version: 1\ntimeout: 42D\n${STAGE_OK}`)).toEqual([
      'pipeline.yaml: timeout: expected a duration: seconds (10, 2.5) or a number with a unit such as 250ms, 5s, 2m, 1h or 1d; got the string "42D"',
    ]);
    expect(problems(`version: 1\nkill-after: 5 s\n${STAGE_OK}`)).toHaveLength(1);
    expect(problems(`version: 1\nidle-timeout: -1\n${STAGE_OK}`)).toHaveLength(1);
  });

  test('durations longer than a timer can wait are refused', () => {
    expect(problems(`version: 1\ntimeout: 600h\n${STAGE_OK}`)).toEqual([
      'pipeline.yaml: timeout: "600h" is too long; the longest is 596h (about 24 days), the longest a Node timer can wait',
    ]);
  });

  test('sizes are byte counts or numbers with a unit', () => {
    const expected = 'expected a size: a byte count, or a number with a unit such as 64KiB, 10MB or 1GiB';
    expect(problems(`version: 1\nmax-stdout: 10XB\nmax-stderr: -1\nmax-log: 1.5\n${STAGE_OK}`)).toEqual([
      `pipeline.yaml: max-stdout: ${expected}; got the string "10XB"`,
      `pipeline.yaml: max-stderr: ${expected}; got the number -1`,
      `pipeline.yaml: max-log: ${expected}; got the number 1.5`,
    ]);
    expect(problems(`version: 1\nmax-log: 99999999999999999999GiB\n${STAGE_OK}`)).toEqual([
      'pipeline.yaml: max-log: "99999999999999999999GiB" is too large; the largest size is 9007199254740991 bytes (8PiB)',
    ]);
  });

  test('enumerations list their values', () => {
    expect(
      problems(`version: 1\nsigpipe: ignore\non-limit: stop\nlive-stdout: all\nleftovers: reap\n${STAGE_OK}`),
    ).toEqual([
      'pipeline.yaml: sigpipe: expected one of tolerate, fail; got the string "ignore"',
      'pipeline.yaml: on-limit: expected one of truncate, kill; got the string "stop"',
      'pipeline.yaml: live-stdout: expected one of full, capped; got the string "all"',
      'pipeline.yaml: leftovers: expected one of kill, keep; got the string "reap"',
    ]);
  });

  test('booleans are true or false, not YAML 1.1 words', () => {
    expect(problems(`version: 1\nfail-fast: yes\n${STAGE_OK}`)).toEqual([
      'pipeline.yaml: fail-fast: expected true or false; got the string "yes"',
    ]);
  });

  test('exit codes are integers 0-255, at least one', () => {
    expect(problemsIn('run: [x]\nok-codes: [256, -1, 1.5, "1"]')).toHaveLength(4);
    expect(problemsIn('run: [x]\nok-codes: []')).toEqual([
      'pipeline.yaml: stages[1].ok-codes: expected a non-empty list of exit codes (integers 0-255); got an empty list',
    ]);
  });

  test('paths and arguments cannot hold a NUL character', () => {
    expect(problemsIn('run: [x, "a\\0b"]\ncwd: "d\\0"')).toEqual([
      'pipeline.yaml: stages[1].run[1]: contains a NUL character, which no argument, path or variable can hold',
      'pipeline.yaml: stages[1].cwd: contains a NUL character, which no argument, path or variable can hold',
    ]);
  });

  test('stage names are unique and safe to use in a file name', () => {
    expect(
      problems(
        'version: 1\nstages:\n  - {name: a, run: [x]}\n  - {name: b, run: [x]}\n  - {name: a, run: [x]}\n',
      ),
    ).toEqual(['pipeline.yaml: stages[2].name: duplicate name "a"; stages[0] already has it']);
    expect(problemsIn('run: [x]\nname: ../etc')[0]).toMatch(
      /^pipeline\.yaml: stages\[1\]\.name: expected a name of letters/,
    );
    expect(problemsIn(`run: [x]\nname: ${'n'.repeat(65)}`)).toHaveLength(1);
  });

  test('duplicate names are reported along with the other problems', () => {
    expect(problems('version: 1\nstages:\n  - {name: a, run: 1}\n  - {name: a, run: [x]}\n')).toHaveLength(2);
  });
});

describe('syntax errors', () => {
  test('in YAML give line and column', () => {
    const error = requestErrorOf(() =>
      parseSpec('version: 1\nstages:\n  - run: [cat\n', {
        label: 'p.yaml',
        format: 'yaml',
        baseDir: dir.root,
      }),
    );
    expect(error.code).toBe('spec.syntax');
    expect(error.message).toMatch(/^p\.yaml: line \d+, column \d+: \S/);
    expect(error.message).not.toContain('\n\n');
  });

  test('in YAML include tabs used for indentation and duplicate keys', () => {
    expect(problems('version: 1\nversion: 1\n')).toEqual([
      'pipeline.yaml: line 2, column 1: Map keys must be unique',
    ]);
    expect(problems('version: 1\nstages:\n\t- run: [cat]\n')[0]).toMatch(
      /^pipeline\.yaml: line 3, column 1: Tabs/,
    );
  });

  test('in YAML include several documents in one file and unresolved aliases', () => {
    expect(problems('version: 1\n---\nversion: 1\n')[0]).toMatch(
      /^pipeline\.yaml: line 2, column 1: Source contains multiple/,
    );
    expect(problems('version: 1\nstages: *nothing\n')).toEqual([
      'pipeline.yaml: Unresolved alias (the anchor must be set before the alias): nothing',
    ]);
  });

  test('in JSON give line and column', () => {
    const path = dir.write('bad.json', '{\n  "version": 1,\n  "stages": [],\n}\n');
    const error = requestErrorOf(() => loadSpec(path));
    expect(error.code).toBe('spec.syntax');
    expect(error.message).toBe(
      `${path}: line 4, column 1: not valid JSON: Expected double-quoted property name`,
    );
    const path2 = dir.write('bad2.json', '{\n  "version": tru\n}\n');
    expect(requestErrorOf(() => loadSpec(path2)).message).toMatch(
      /^.*bad2\.json: line 2, column \d+: not valid JSON: Unexpected token/,
    );
  });

  test('in JSON include duplicate keys, which JSON.parse would silently resolve', () => {
    const path = dir.write('dup.json', '{"version": 1, "stages": [{"run": ["cat"], "run": ["rm"]}]}');
    expect(linesOf(() => loadSpec(path))).toEqual([`${path}: line 1, column 44: Map keys must be unique`]);
  });

  test('are not checked against YAML in a .json file', () => {
    const path = dir.write('yamlish.json', 'version: 1\nstages:\n  - run: [cat]\n');
    expect(requestErrorOf(() => loadSpec(path)).code).toBe('spec.syntax');
  });
});

describe('files that cannot be read', () => {
  test('a missing file is spec.not-found', () => {
    const path = `${dir.root}/missing.yaml`;
    const error = requestErrorOf(() => loadSpec(path));
    expect(error.code).toBe('spec.not-found');
    expect(error.message).toBe(`${path}: no such file`);
  });

  test('a directory is spec.unreadable', () => {
    const error = requestErrorOf(() => loadSpec(dir.root));
    expect(error.code).toBe('spec.unreadable');
    expect(error.message).toBe(`${dir.root}: is a directory, not a spec file`);
  });

  test.skipIf(process.getuid?.() === 0)('a file without read permission is spec.unreadable', () => {
    const path = dir.write('secret.yaml', 'version: 1\n');
    chmodSync(path, 0o000);
    expect(requestErrorOf(() => loadSpec(path)).message).toBe(`${path}: permission denied`);
  });

  test('stdin that cannot be read is spec.unreadable', () => {
    const error = requestErrorOf(() =>
      loadSpec('-', () => {
        throw Object.assign(new Error('read failed'), { code: 'EAGAIN' });
      }),
    );
    expect(error.code).toBe('spec.unreadable');
    expect(error.message).toBe('<stdin>: cannot be read (EAGAIN)');
  });
});

describe('an empty document', () => {
  test.each([
    ['an empty file', ''],
    ['only comments', '# nothing yet\n'],
    ['only whitespace', '  \n\n'],
    ['a null document', 'null\n'],
  ])('(%s) is spec.empty', (_, text) => {
    const error = requestErrorOf(() => loadSpec(dir.write('empty.yaml', text)));
    expect(error.code).toBe('spec.empty');
    expect(error.message).toMatch(/: the document is empty; expected a mapping with "version" and "stages"$/);
  });

  test('is spec.empty from stdin and in JSON', () => {
    expect(requestErrorOf(() => loadSpec('-', () => '')).code).toBe('spec.empty');
    expect(requestErrorOf(() => loadSpec(dir.write('empty.json', ' \n'))).code).toBe('spec.empty');
  });
});

describe('many problems', () => {
  test('are cut after 50 lines with a count of the rest', () => {
    const stages = Array.from({ length: 60 }, () => '  - run: 1').join('\n');
    const lines = problems(`version: 1\nstages:\n${stages}\n`);
    expect(lines).toHaveLength(51);
    expect(lines.at(-1)).toBe('pipeline.yaml: … and 10 more problems');
  });
});

describe('stdin', () => {
  test('a bare YAML null is refused with the quoted spelling to use', () => {
    expect(problems(`version: 1\nstdin: null\n${STAGE_OK}`)).toEqual([
      'pipeline.yaml: stdin: got nothing; for no input write "null" in quotes, since a bare null in YAML means no value',
    ]);
    expect(problems(`version: 1\nstdin: 0\n${STAGE_OK}`)).toEqual([
      'pipeline.yaml: stdin: expected "inherit", "null" or a file path; got the number 0',
    ]);
  });
});

describe('hostile documents', () => {
  test.each(['yaml', 'json'] as const)('deeply nested %s is refused before it is composed', (format) => {
    const text = `{"version": 1, "stages": [{"run": ["a"], "env": {"A": ${'['.repeat(5000)}${']'.repeat(5000)}}}]}`;
    const error = requestErrorOf(() => parseSpec(text, { label: 'deep', format, baseDir: dir.root }));
    expect(error.code).toBe('spec.invalid');
    expect(error.message).toBe(
      'deep: collections are nested more than 32 levels deep; a spec needs at most 5',
    );
  });

  test('nested block sequences on one line count as nesting too', () => {
    expect(problems(`${'- '.repeat(2000)}x\n`)).toEqual([
      'pipeline.yaml: collections are nested more than 32 levels deep; a spec needs at most 5',
    ]);
  });

  test('an alias expansion attack is a syntax error', () => {
    const anchors = Array.from({ length: 12 }, (_, i) =>
      i === 0 ? '  a0: &a0 [x, x, x, x]' : `  a${i}: &a${i} [*a${i - 1}, *a${i - 1}, *a${i - 1}, *a${i - 1}]`,
    );
    expect(problems(`bomb:\n${anchors.join('\n')}\nversion: 1\nstages:\n  - run: [cat]\n`)).toEqual([
      'pipeline.yaml: Excessive alias count indicates a resource exhaustion attack',
    ]);
  });
});
