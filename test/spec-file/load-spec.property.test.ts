import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { stringify } from 'yaml';
import { RequestError } from '../../src/errors.js';
import { parseSpec } from '../../src/spec-file/load-spec.js';
import { PIPELINE_KEYS, STAGE_KEYS } from '../../src/spec-file/schema.js';

type Format = 'yaml' | 'json';
const LABEL = 'gen.yaml';

// The contract: a valid SpecInput, or a RequestError whose message is one line per problem, each
// naming the file, with nothing that looks like a stack trace. Never any other outcome.
function checkOutcome(text: string, format: Format): 'valid' | 'invalid' {
  let result: ReturnType<typeof parseSpec>;
  try {
    result = parseSpec(text, { label: LABEL, format, baseDir: '/work' });
  } catch (error) {
    expect(error).toBeInstanceOf(RequestError);
    const { code, message } = error as RequestError;
    expect(code).toMatch(/^spec\.[a-z-]+$/);
    expect(message.trim()).not.toBe('');
    for (const line of message.split('\n')) {
      expect(line.startsWith(`${LABEL}: `)).toBe(true);
      expect(line.length).toBeGreaterThan(LABEL.length + 2);
      expect(line).not.toMatch(/^\s*at |\bat \S+ \(|node_modules|\.ts:\d+|Error:/);
    }
    return 'invalid';
  }
  expect(result.stages.length).toBeGreaterThan(0);
  const names = result.stages.map((stage) => stage.name);
  expect(new Set(names).size).toBe(names.length);
  for (const stage of result.stages) {
    expect(stage.argv.length).toBeGreaterThan(0);
    expect(stage.argv[0]).not.toBe('');
    for (const arg of stage.argv) expect(typeof arg).toBe('string');
    for (const value of Object.values(stage.env)) expect(typeof value).toBe('string');
    for (const code of stage.okCodes) expect(Number.isInteger(code) && code >= 0 && code <= 255).toBe(true);
  }
  return 'valid';
}

const VALID = {
  version: 1,
  policy: 'first-failure',
  timeout: '5m',
  'max-stdout': '64KiB',
  stages: [
    { name: 'produce', run: ['sh', '-c', 'printf "a\\nb\\n"'], env: { LC_ALL: 'C' } },
    { run: 'grep -v b', 'ok-codes': [0, 1], optional: true },
    { run: ['wc', '-l'], timeout: '10s', cwd: 'out' },
  ],
};

// Values that are valid somewhere, so that mutations often produce near-valid documents.
const plausibleValue = fc.oneof(
  fc.constantFrom(
    '5s',
    '250ms',
    '64KiB',
    '10MB',
    'inherit',
    'null',
    'kill',
    'last',
    'cat | wc',
    'A=1 cat',
    'cat',
  ),
  fc.constantFrom(true, false, 0, 1, 255, 256, -1, 1.5, null, [], {}, [0, 1], ['cat'], { A: 'b' }, { A: 1 }),
  fc.jsonValue({ maxDepth: 2 }),
  fc.string({ maxLength: 12 }),
);
const anyKey = fc.oneof(
  fc.constantFrom(...PIPELINE_KEYS, ...STAGE_KEYS, 'runn', 'okCodes', '__proto__', 'constructor', ''),
  fc.string({ maxLength: 8 }),
);

type Mutation =
  | { kind: 'set'; stage: number | null; key: string; value: unknown }
  | { kind: 'delete'; stage: number | null; key: string }
  | { kind: 'duplicate-stage'; stage: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant('set' as const),
    stage: fc.option(fc.nat(3)),
    key: anyKey,
    value: plausibleValue,
  }),
  fc.record({ kind: fc.constant('delete' as const), stage: fc.option(fc.nat(3)), key: anyKey }),
  fc.record({ kind: fc.constant('duplicate-stage' as const), stage: fc.nat(3) }),
);

function mutate(mutations: Mutation[]): unknown {
  const document: Record<string, unknown> = structuredClone(VALID);
  for (const change of mutations) {
    // Earlier mutations may have replaced or removed the stages.
    const stages: unknown[] = Array.isArray(document.stages) ? document.stages : [];
    if (change.kind === 'duplicate-stage') {
      if (stages.length > 0) stages.push(structuredClone(stages[change.stage % stages.length]));
      continue;
    }
    const target = change.stage === null ? document : stages[change.stage];
    if (typeof target !== 'object' || target === null) continue;
    // defineProperty, so that a "__proto__" key becomes a key like any other.
    if (change.kind === 'set') {
      Object.defineProperty(target, change.key, {
        value: change.value,
        enumerable: true,
        configurable: true,
        writable: true,
      });
    } else delete (target as Record<string, unknown>)[change.key];
  }
  return document;
}

const format = fc.constantFrom<Format>('yaml', 'json');

function serialize(value: unknown, as: Format): string {
  return as === 'json' ? (JSON.stringify(value) ?? '') : stringify(value);
}

describe('parseSpec on generated documents', () => {
  test('the valid document the mutations start from is valid', () => {
    expect(
      parseSpec(JSON.stringify(VALID), { label: LABEL, format: 'json', baseDir: '/work' }).stages,
    ).toHaveLength(3);
  });

  test('returns a valid result or throws a one-line-per-problem RequestError for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), format, (value, as) => {
        checkOutcome(serialize(value, as), as);
      }),
      { numRuns: 200 },
    );
  });

  test('returns a valid result or throws a one-line-per-problem RequestError for mutations of a valid spec', () => {
    const seen = { valid: 0, invalid: 0 };
    fc.assert(
      fc.property(fc.array(mutation, { maxLength: 5 }), format, (mutations, as) => {
        seen[checkOutcome(serialize(mutate(mutations), as), as)] += 1;
      }),
      { numRuns: 500 },
    );
    // Both outcomes are exercised, or the property says little.
    expect(seen.valid).toBeGreaterThan(25);
    expect(seen.invalid).toBeGreaterThan(25);
  });

  test('returns a valid result or throws a one-line-per-problem RequestError for arbitrary text', () => {
    const yamlish = fc
      .array(
        fc.constantFrom(
          'version: 1\n',
          'stages:\n',
          '  - run: [cat]\n',
          '- ',
          ': ',
          '[',
          ']',
          '{',
          '}',
          '"',
          "'",
          '&a ',
          '*a',
          '!!binary ',
          '\t',
          '#',
          '---\n',
          ',',
          '\n',
          'x',
        ),
        { maxLength: 20 },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(fc.string(), yamlish), format, (text, as) => {
        checkOutcome(text, as);
      }),
      { numRuns: 500 },
    );
  });
});
