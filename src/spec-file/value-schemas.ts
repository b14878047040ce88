import { z } from 'zod';
import { readDuration, readSize, sizeTooLarge } from '../inputs/read-units.js';

// The zod pieces the spec schema is built from. Each one carries the sentence a user sees when the
// value is wrong, and durations and sizes are converted by the same parsers the CLI flags use.

// The same grammar readDuration and readSize accept (a test checks they agree), spelled without
// regex flags so the JSON Schema `pattern` means the same thing in editors. The values themselves
// are converted, and their range checked, by those readers: the ones the CLI flags use.
export const DURATION_PATTERN = /^(?:\d+(?:\.\d*)?|\.\d+)(?:ms|s|m|h|d)?$/;
export const SIZE_PATTERN = /^(?:\d+\s*[bB]?|\d+(?:\.\d+)?\s*[kKmMgG](?:[iI]?[bB])?)$/;
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const STAGE_NAME_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;
export const STAGE_NAME_MAX = 64;

export function describeValue(value: unknown): string {
  if (value === undefined || value === null) return 'nothing';
  if (typeof value === 'string') return `the string ${quote(value)}`;
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : 'a list';
  if (value instanceof Uint8Array) return 'binary data';
  if (value instanceof Date) return 'a date';
  return 'a mapping';
}

// A user's text inside a one-line message: quoted, escaped, and cut when long.
export function quote(text: string): string {
  const cut = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return JSON.stringify(cut);
}

type IssueInput = { input?: unknown };

// The message for a wrong value: what was expected, and what was found. A missing required key says so.
export function expected(what: string): (issue: IssueInput) => string {
  return (issue) =>
    issue.input === undefined
      ? `missing; expected ${what}`
      : `expected ${what}; got ${describeValue(issue.input)}`;
}

const NO_NUL = (text: string) => !text.includes('\0');
const NUL_MESSAGE = 'contains a NUL character, which no argument, path or variable can hold';

// onNull: what to say when YAML gave no value (a bare `null`, or nothing after the colon).
export function textSchema(what: string, onNull?: string) {
  const error = (issue: IssueInput) =>
    issue.input === null && onNull !== undefined ? onNull : expected(what)(issue);
  return z
    .string({ error })
    .min(1, { error: expected(what) })
    .refine(NO_NUL, { error: NUL_MESSAGE });
}

export function booleanSchema() {
  return z.boolean({ error: expected('true or false') });
}

export function enumSchema<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: expected(`one of ${values.join(', ')}`) });
}

const DURATION_EXPECTED =
  'a duration: seconds (10, 2.5) or a number with a unit such as 250ms, 5s, 2m, 1h or 1d';

// A duration as coreutils `timeout` reads it; YAML's `timeout: 10` is a number, and means 10 seconds.
export function durationSchema() {
  const error = expected(DURATION_EXPECTED);
  return z
    .union(
      [z.number({ error }).nonnegative({ error }), z.string({ error }).regex(DURATION_PATTERN, { error })],
      { error },
    )
    .transform((value, ctx) => {
      const read = readDuration(String(value));
      if (read.ok) return read.value;
      ctx.issues.push({ code: 'custom', input: value, message: read.message });
      return z.NEVER;
    });
}

const SIZE_EXPECTED = 'a size: a byte count, or a number with a unit such as 64KiB, 10MB or 1GiB';

export function sizeSchema() {
  const error = expected(SIZE_EXPECTED);
  return z
    .union(
      [
        z.number({ error }).int({ error }).nonnegative({ error }),
        z.string({ error }).regex(SIZE_PATTERN, { error }),
      ],
      { error },
    )
    .transform((value, ctx) => {
      if (typeof value === 'number') {
        if (Number.isSafeInteger(value)) return value;
        ctx.issues.push({ code: 'custom', input: value, message: sizeTooLarge(String(value)) });
        return z.NEVER;
      }
      const read = readSize(value);
      if (read.ok) return read.value;
      ctx.issues.push({ code: 'custom', input: value, message: read.message });
      return z.NEVER;
    });
}

// __proto__ is a name a shell accepts, but JavaScript objects would drop it silently: refused.
export function isEnvName(name: string): boolean {
  return ENV_NAME_PATTERN.test(name) && name !== '__proto__';
}

export function envNameSchema() {
  const what = 'a variable name: letters, digits and _, not starting with a digit';
  return z
    .string({ error: expected(what) })
    .regex(ENV_NAME_PATTERN, { error: expected(what) })
    .refine(isEnvName, { error: '__proto__ cannot be passed to a stage; use another name' });
}

// YAML reads `8080`, `true` and `1.10` as a number or a boolean where a string was meant. They are
// refused rather than converted (1.10 would silently become "1.1"), with the quoting that fixes it.
function quoteScalar(issue: IssueInput): string {
  return typeof issue.input === 'number' || typeof issue.input === 'boolean'
    ? `expected a string; got ${describeValue(issue.input)}: quote it, "${String(issue.input)}"`
    : expected('a string')(issue);
}

export function envMapSchema() {
  return z.record(envNameSchema(), z.string({ error: quoteScalar }).refine(NO_NUL, { error: NUL_MESSAGE }), {
    error: expected('a mapping of variable names to string values'),
  });
}

export function stageNameSchema() {
  const what = `a name of letters, digits, ".", "_" and "-" (at most ${STAGE_NAME_MAX}), not starting with "." or "-"`;
  return z
    .string({ error: expected(what) })
    .regex(STAGE_NAME_PATTERN, { error: expected(what) })
    .max(STAGE_NAME_MAX, { error: expected(what) });
}

export function exitCodesSchema() {
  const what = 'a non-empty list of exit codes (integers 0-255)';
  const code = z
    .number({ error: expected('an exit code (an integer 0-255)') })
    .int({ error: expected('an exit code (an integer 0-255)') })
    .min(0, { error: expected('an exit code (an integer 0-255)') })
    .max(255, { error: expected('an exit code (an integer 0-255)') });
  return z.array(code, { error: expected(what) }).min(1, { error: expected(what) });
}

export function argvSchema() {
  const what = 'a non-empty array of strings';
  return z
    .array(textOrEmptySchema(), { error: expected(what) })
    .min(1, { error: expected(what) })
    .refine((argv) => argv[0] !== '', { path: [0], error: 'the program name is empty' });
}

function textOrEmptySchema() {
  return z.string({ error: quoteScalar }).refine(NO_NUL, { error: NUL_MESSAGE });
}

// The shortest exact spelling of a default, for the JSON Schema and the docs: 5000 -> 5s.
export function durationText(ms: number): string {
  for (const [unit, size] of [
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

export function sizeText(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (bytes % size === 0) return `${bytes / size}${unit}`;
  }
  return String(bytes);
}
