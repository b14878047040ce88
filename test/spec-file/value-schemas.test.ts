import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  MAX_DURATION_MS,
  parseDuration,
  parseSize,
  readDuration,
  readSize,
  type UnitValue,
} from '../../src/settings/read-units.js';
import { DURATION_PATTERN, SIZE_PATTERN } from '../../src/spec-file/value-schemas.js';
import { requestErrorOf } from '../helpers/index.js';

// Whether the text is written as a value at all; a value out of range is still written as one.
function wellFormed(read: (text: string) => UnitValue, text: string): boolean {
  const result = read(text);
  return result.ok || result.reason !== 'syntax';
}

// Text built from the pieces durations and sizes are made of, so that most samples are near misses.
const unitText = (units: string[]) =>
  fc
    .array(fc.constantFrom(...'0123456789.'.split(''), ' ', '-', 'x', ...units), { maxLength: 6 })
    .map((parts) => parts.join(''))
    .filter((text) => text === text.trim());

describe('the JSON Schema patterns', () => {
  test('accept exactly the durations readDuration reads', () => {
    fc.assert(
      fc.property(unitText(['ms', 's', 'm', 'h', 'S', 'd']), (text) => {
        expect(DURATION_PATTERN.test(text)).toBe(wellFormed(readDuration, text));
      }),
      { numRuns: 3000 },
    );
  });

  test('accept exactly the sizes readSize reads', () => {
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
        expect(SIZE_PATTERN.test(text)).toBe(wellFormed(readSize, text));
      }),
      { numRuns: 3000 },
    );
  });

  test('agree with the parsers on the documented examples', () => {
    for (const text of ['250ms', '5s', '1.5s', '2m', '1h', '5', '1d', '.1', '10.34', '0']) {
      expect(DURATION_PATTERN.test(text)).toBe(true);
    }
    for (const text of ['5 s', '5sec', '-1s', '42D', 'invalid', '1e2', '']) {
      expect(DURATION_PATTERN.test(text)).toBe(false);
    }
    for (const text of ['64KiB', '10MB', '1GiB', '512B', '4096', '10 MB', '1.5k']) {
      expect(SIZE_PATTERN.test(text)).toBe(true);
    }
    for (const text of ['10XB', '-1', 'KiB', '1TiB', '', '1.5', '1.5B'])
      expect(SIZE_PATTERN.test(text)).toBe(false);
  });
});

describe('the duration and size parsers the flags and spec files share', () => {
  test('convert durations to ms and sizes to bytes', () => {
    expect(['250ms', '5s', '1.5s', '2m', '1h'].map((text) => parseDuration(text, '--timeout'))).toEqual([
      250, 5000, 1500, 120_000, 3_600_000,
    ]);
    expect(
      ['64KiB', '10MB', '1GiB', '512B', '4096', '1.5k'].map((text) => parseSize(text, '--max-log')),
    ).toEqual([65_536, 10_000_000, 1024 ** 3, 512, 4096, 1536]);
  });

  test('accept durations up to the longest a Node timer can wait, and refuse longer ones', () => {
    expect(parseDuration('596h', '--timeout')).toBe(596 * 3_600_000);
    expect(parseDuration(`${MAX_DURATION_MS}ms`, '--timeout')).toBe(2 ** 31 - 1);
    const error = requestErrorOf(() => parseDuration(`${MAX_DURATION_MS + 1}ms`, '--timeout'));
    expect(error.code).toBe('usage.duration-range');
    expect(requestErrorOf(() => parseDuration('600h', '--kill-after')).message).toBe(
      '--kill-after: "600h" is too long; the longest is 596h (about 24 days), the longest a Node timer can wait',
    );
  });

  test('name the flag and say how to write the value when it is not one', () => {
    const error = requestErrorOf(() => parseDuration('5x', '--idle-timeout'));
    expect(error.code).toBe('usage.duration');
    expect(error.message).toBe(
      '--idle-timeout: "5x" is not a duration; write seconds (10, 2.5) or a number with a unit: 250ms, 5s, 2m, 1h, 1d',
    );
    expect(requestErrorOf(() => parseSize('10XB', '--max-stdout')).message).toBe(
      '--max-stdout: "10XB" is not a size; write bytes or a number with a unit: 64KiB, 10MB, 1GiB',
    );
  });

  test('refuse sizes too large to count exactly', () => {
    expect(parseSize(`${Number.MAX_SAFE_INTEGER}`, '--max-log')).toBe(Number.MAX_SAFE_INTEGER);
    const error = requestErrorOf(() => parseSize('99999999999999999999GiB', '--max-log'));
    expect(error.code).toBe('usage.size-range');
    expect(error.message).toBe(
      '--max-log: "99999999999999999999GiB" is too large; the largest size is 9007199254740991 bytes (8PiB)',
    );
  });

  test('cut a long value in the message to keep it on one readable line', () => {
    const message = requestErrorOf(() => parseDuration(`${'9'.repeat(500)}h`, '--timeout')).message;
    expect(message.length).toBeLessThan(150);
  });
});
