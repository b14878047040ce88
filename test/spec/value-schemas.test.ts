import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseDuration, parseSize } from '../../src/inputs/units.js';
import { DURATION_PATTERN, SIZE_PATTERN } from '../../src/spec/value-schemas.js';

function accepts(parse: (text: string, what: string) => number, text: string): boolean {
  try {
    parse(text, 'value');
    return true;
  } catch {
    return false;
  }
}

// Text built from the pieces durations and sizes are made of, so that most samples are near misses.
const unitText = (units: string[]) =>
  fc
    .array(fc.constantFrom(...'0123456789.'.split(''), ' ', '-', 'x', ...units), { maxLength: 6 })
    .map((parts) => parts.join(''))
    .filter((text) => text === text.trim());

describe('the JSON Schema patterns', () => {
  test('accept exactly the durations parseDuration accepts', () => {
    fc.assert(
      fc.property(unitText(['ms', 's', 'm', 'h', 'S', 'd']), (text) => {
        expect(DURATION_PATTERN.test(text)).toBe(accepts(parseDuration, text));
      }),
      { numRuns: 3000 },
    );
  });

  test('accept exactly the sizes parseSize accepts', () => {
    const units = [
      'b',
      'B',
      'k',
      'K',
      'kb',
      'KB',
      'KiB',
      'kib',
      'm',
      'MB',
      'MiB',
      'g',
      'GB',
      'GiB',
      'i',
      'T',
    ];
    fc.assert(
      fc.property(unitText(units), (text) => {
        expect(SIZE_PATTERN.test(text)).toBe(accepts(parseSize, text));
      }),
      { numRuns: 3000 },
    );
  });

  test('agree with the parsers on the documented examples', () => {
    for (const text of ['250ms', '5s', '1.5s', '2m', '1h']) expect(DURATION_PATTERN.test(text)).toBe(true);
    for (const text of ['5', '5 s', '5sec', '-1s', '1d', '']) expect(DURATION_PATTERN.test(text)).toBe(false);
    for (const text of ['64KiB', '10MB', '1GiB', '512B', '4096', '10 MB', '1.5k']) {
      expect(SIZE_PATTERN.test(text)).toBe(true);
    }
    for (const text of ['10XB', '-1', 'KiB', '1TiB', '']) expect(SIZE_PATTERN.test(text)).toBe(false);
  });
});
