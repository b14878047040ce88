import { describe, expect, test } from 'vitest';
import { editDistance, suggestKey } from '../../src/spec-file/did-you-mean.js';
import { PIPELINE_KEYS, STAGE_KEYS } from '../../src/spec-file/schema.js';

describe('editDistance', () => {
  test('counts insertions, deletions, substitutions and adjacent swaps as one edit each', () => {
    expect(editDistance('run', 'run')).toBe(0);
    expect(editDistance('runn', 'run')).toBe(1);
    expect(editDistance('rn', 'run')).toBe(1);
    expect(editDistance('ron', 'run')).toBe(1);
    expect(editDistance('nmae', 'name')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});

describe('suggestKey', () => {
  test('suggests the key a typo was meant to be', () => {
    expect(suggestKey('runn', STAGE_KEYS)).toBe('run');
    expect(suggestKey('nmae', STAGE_KEYS)).toBe('name');
    expect(suggestKey('ok-code', STAGE_KEYS)).toBe('ok-codes');
    expect(suggestKey('timout', PIPELINE_KEYS)).toBe('timeout');
    expect(suggestKey('stage', PIPELINE_KEYS)).toBe('stages');
    expect(suggestKey('polcy', PIPELINE_KEYS)).toBe('policy');
  });

  test('maps camelCase, snake_case and other casing onto the kebab-case key', () => {
    expect(suggestKey('okCodes', STAGE_KEYS)).toBe('ok-codes');
    expect(suggestKey('ok_codes', STAGE_KEYS)).toBe('ok-codes');
    expect(suggestKey('maxStdout', PIPELINE_KEYS)).toBe('max-stdout');
    expect(suggestKey('FAIL_FAST', PIPELINE_KEYS)).toBe('fail-fast');
  });

  test('suggests nothing for a key that is not close to any', () => {
    expect(suggestKey('command', STAGE_KEYS)).toBeNull();
    expect(suggestKey('x', STAGE_KEYS)).toBeNull();
    expect(suggestKey('a'.repeat(1000), STAGE_KEYS)).toBeNull();
  });
});
