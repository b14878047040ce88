import { describe, expect, it } from 'vitest';
import { RequestError } from '../../src/errors.js';
import { MAX_STAGES, MAX_TEXT_BYTES } from '../../src/inputs/limits.js';
import { assignStageNames } from '../../src/inputs/stage-names.js';
import { planFromArgv, planFromInline } from '../../src/plan.js';
import { parseSpec } from '../../src/spec-file/load-spec.js';

function refusal(call: () => unknown): RequestError {
  try {
    call();
  } catch (error) {
    if (error instanceof RequestError) return error;
    throw error;
  }
  throw new Error('expected a RequestError');
}

describe('default stage names', () => {
  it('number repeats in order, around names the user reserved', () => {
    expect(assignStageNames(['cat', 'cat', '/bin/cat', 'cat', 'x'], [undefined, undefined, 'cat-3'])).toEqual(
      ['cat', 'cat-2', 'cat-3', 'cat-4', 'x'],
    );
    expect(assignStageNames(['a', 'a-2', 'a', 'a'])).toEqual(['a', 'a-2', 'a-3', 'a-4']);
  });

  it('stay unique for as many stages as a pipeline may have', () => {
    const names = assignStageNames(Array.from({ length: MAX_STAGES }, () => 'cat'));
    expect(new Set(names).size).toBe(MAX_STAGES);
    expect(names.at(-1)).toBe(`cat-${MAX_STAGES}`);
  });
});

describe('caps on a request', () => {
  it(`accept ${MAX_STAGES} stages and refuse one more`, () => {
    const text = (count: number) => Array.from({ length: count }, () => 'cat').join(' | ');
    expect(planFromInline(text(MAX_STAGES)).shell?.okCodes).toHaveLength(MAX_STAGES);
    const error = refusal(() => planFromInline(text(MAX_STAGES + 1)));
    expect(error.code).toBe('usage.too-many-stages');
    expect(error.message).toBe(
      `-c: ${MAX_STAGES + 1} stages; at most ${MAX_STAGES} are accepted (split the work into several runs)`,
    );
  });

  it('refuse a spec with too many stages before validating each one', () => {
    const yaml = `version: 1\nstages:\n${'  - run: [cat]\n    timeout: bad\n'.repeat(MAX_STAGES + 1)}`;
    const error = refusal(() => parseSpec(yaml, { label: 'big.yaml', format: 'yaml', baseDir: '/' }));
    expect(error.message).toBe(
      `big.yaml: ${MAX_STAGES + 1} stages; at most ${MAX_STAGES} are accepted (split the work into several runs)`,
    );
  });

  it('refuse a text over 1MiB', () => {
    const error = refusal(() => planFromInline(`echo ${'x'.repeat(MAX_TEXT_BYTES)}`));
    expect(error.code).toBe('usage.too-large');
    expect(error.message).toBe('-c: more than 1048576 bytes (1MiB), the most a pipeline text may hold');
    expect(planFromArgv(['echo', 'x'.repeat(1000)]).stages).toHaveLength(1);
  });
});
