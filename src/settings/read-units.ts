import { RequestError } from '../errors.js';

// One parser for durations and sizes, shared by the command-line flags and spec files, so that a
// value means the same thing (and is refused with the same words) wherever it is written.

// Either the value, or why the text is not one: `syntax` when it is not written as one at all,
// `range` when it is, but is more than safe-run can honour.
export type UnitValue =
  | { ok: true; value: number }
  | { ok: false; reason: 'syntax' | 'range'; message: string };

// Node's timers cannot wait longer than 2^31-1 ms (about 596h, 24 days): a longer delay fires after
// 1ms, so a limit past it would stop the pipeline at once instead of never.
export const MAX_DURATION_MS = 2 ** 31 - 1;

// The user's text in a one-line message: quoted, escaped, and cut when long.
function shown(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

const DURATION_UNITS: Record<string, number> = {
  '': 1000,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

// Durations as coreutils `timeout` reads them: a bare number is seconds, with fractions (.5, 10.34,
// 5.) and the suffixes s, m, h and d; ms is safe-run's own. Only decimal text: the hexadecimal,
// exponent and `inf` forms that timeout's strtod also takes are refused, since nobody means them.
// A nonzero value never rounds down to 0, which means "no limit" where 0 is allowed.
export function readDuration(text: string): UnitValue {
  const match = /^(\d+(?:\.\d*)?|\.\d+)(ms|s|m|h|d)?$/.exec(text);
  if (!match) {
    return {
      ok: false,
      reason: 'syntax',
      message: `${shown(text)} is not a duration; write seconds (10, 2.5) or a number with a unit: 250ms, 5s, 2m, 1h, 1d`,
    };
  }
  const number = Number(match[1]);
  const exact = Math.round(number * DURATION_UNITS[match[2] ?? '']!);
  const value = exact === 0 && number > 0 ? 1 : exact;
  if (value > MAX_DURATION_MS) {
    return {
      ok: false,
      reason: 'range',
      message: `${shown(text)} is too long; the longest is 596h (about 24 days), the longest a Node timer can wait`,
    };
  }
  return { ok: true, value };
}

// For a flag: the duration in ms, or a RequestError naming the flag (`what`).
export function parseDuration(text: string, what: string): number {
  const read = readDuration(text);
  if (read.ok) return read.value;
  throw new RequestError(
    read.reason === 'syntax' ? 'usage.duration' : 'usage.duration-range',
    `${what}: ${read.message}`,
  );
}

const SIZE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1000,
  mb: 1000 ** 2,
  gb: 1000 ** 3,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  k: 1024,
  m: 1024 ** 2,
  g: 1024 ** 3,
};

// Byte counts are exact only up to 2^53-1 (8 PiB); past that a limit would be a rounded guess.
export function sizeTooLarge(text: string): string {
  return `${shown(text)} is too large; the largest size is ${Number.MAX_SAFE_INTEGER} bytes (8PiB)`;
}

// Sizes: 64KiB, 10MB, 1GiB, 512B, or a bare byte count. KB/MB/GB are decimal, KiB/MiB/GiB (and K/M/G) binary.
export function readSize(text: string): UnitValue {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  const unit = match ? (match[2] ?? '').toLowerCase() : '';
  const factor = unit === '' ? 1 : SIZE_UNITS[unit];
  if (!match || factor === undefined) {
    return {
      ok: false,
      reason: 'syntax',
      message: `${shown(text)} is not a size; write bytes or a number with a unit: 64KiB, 10MB, 1GiB`,
    };
  }
  // 1.5 (bytes) would silently mean 1; a fraction needs a unit it is a fraction of (1.5KiB).
  if (factor === 1 && match[1]!.includes('.')) {
    return {
      ok: false,
      reason: 'syntax',
      message: `${shown(text)} is not a whole number of bytes; write 1 or 2, or use a unit: 1.5KiB`,
    };
  }
  const value = Math.floor(Number(match[1]) * factor);
  if (!Number.isSafeInteger(value)) return { ok: false, reason: 'range', message: sizeTooLarge(text) };
  return { ok: true, value };
}

// For a flag: the size in bytes, or a RequestError naming the flag (`what`).
export function parseSize(text: string, what: string): number {
  const read = readSize(text);
  if (read.ok) return read.value;
  throw new RequestError(
    read.reason === 'syntax' ? 'usage.size' : 'usage.size-range',
    `${what}: ${read.message}`,
  );
}
