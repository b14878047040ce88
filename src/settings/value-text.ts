// The words of setting values that need no schema library: the value grammars, how a wrong value is
// described, and how a default is spelled. The setting kinds (kinds.ts) use them at every start and
// the spec schema (spec-file/value-schemas.ts) is built on them, so this file must not import zod
// (loading it is most of safe-run's start-up when it is in the static import graph).

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

export type IssueInput = { input?: unknown };

// The message for a wrong value: what was expected, and what was found. A missing required key says so.
export function expected(what: string): (issue: IssueInput) => string {
  return (issue) =>
    issue.input === undefined
      ? `missing; expected ${what}`
      : `expected ${what}; got ${describeValue(issue.input)}`;
}

// __proto__ is a name a shell accepts, but JavaScript objects would drop it silently: refused.
export function isEnvName(name: string): boolean {
  return ENV_NAME_PATTERN.test(name) && name !== '__proto__';
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
