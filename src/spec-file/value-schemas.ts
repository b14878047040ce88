import { z } from 'zod';
import type { SpecValue } from '../settings/kinds.js';
import { readDuration, readSize, sizeTooLarge } from '../settings/read-units.js';
import {
  DURATION_PATTERN,
  describeValue,
  ENV_NAME_PATTERN,
  expected,
  type IssueInput,
  isEnvName,
  SIZE_PATTERN,
  STAGE_NAME_MAX,
  STAGE_NAME_PATTERN,
} from '../settings/value-text.js';

export { DURATION_PATTERN, expected, quote, SIZE_PATTERN } from '../settings/value-text.js';

// The zod pieces the spec schema is built from. Each one carries the sentence a user sees when the
// value is wrong, and durations and sizes are converted by the same parsers the CLI flags use.

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

function envNameSchema() {
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

// The schema of a setting's value in a spec file (SettingKind.spec).
export function specValueSchema(spec: SpecValue): z.ZodType<unknown> {
  switch (spec.type) {
    case 'enum':
      return enumSchema(spec.values);
    case 'duration':
      return durationSchema();
    case 'size':
      return sizeSchema();
    case 'boolean':
      return booleanSchema();
    case 'text':
      return textSchema(spec.what, spec.onNull);
    case 'names':
      return z.array(envNameSchema(), { error: expected('a list of variable names') });
  }
}
