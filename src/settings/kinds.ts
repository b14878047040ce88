import path from 'node:path';
import { RequestError } from '../errors.js';
import type { StdinSource } from '../types.js';
import { parseDuration, parseSize } from './read-units.js';
import { durationText, isEnvName, quote, sizeText } from './value-text.js';

// What a flag gave: its text, true for a switch, false for --no-X, every value of a repeatable flag.
export type FlagValue = string | boolean | string[];

// How a setting's value is written in a spec file, as data: src/spec-file/value-schemas.ts turns it
// into a zod schema (specValueSchema). Settings are read at every start, the schema library only
// when a spec file is.
export type SpecValue =
  | { type: 'enum'; values: readonly [string, ...string[]] }
  | { type: 'duration' }
  | { type: 'size' }
  | { type: 'boolean' }
  | { type: 'text'; what: string; onNull?: string }
  | { type: 'names' };

// How one kind of setting is written and read, wherever it is written: a flag, a spec key, a default
// shown in --help, the JSON Schema and a dry run. T is the setting's value; S what the spec schema
// gives before relative paths are placed.
export interface SettingKind<T, S = T> {
  // The flag's argument in --help (<duration>); null for a switch.
  arg: string | null;
  choices?: readonly string[];
  repeatable?: boolean;
  // The --help line of a --no-X flag that turns the setting off, when there is one.
  negation?: string;
  fromFlag(raw: FlagValue, flag: string): T;
  // What a spec file may write; its schema gives an S.
  spec: SpecValue;
  fromSpec(value: S, baseDir: string): T;
  // The value as a user would write it (5s, 32KiB, none).
  show(value: T): string;
  // The JSON Schema `default` for a value; undefined when there is none to state.
  documented(value: T): unknown;
}

function text(raw: FlagValue, flag: string): string {
  if (typeof raw !== 'string') throw new RequestError('usage.value', `${flag}: expected a value`);
  return raw;
}

export function enumKind<const V extends readonly [string, ...string[]]>(values: V): SettingKind<V[number]> {
  const pick = (raw: string, flag: string): V[number] => {
    const found = values.find((value) => value === raw);
    if (found === undefined) {
      throw new RequestError('usage.choice', `${flag}: ${quote(raw)} is not one of ${values.join(', ')}`);
    }
    return found;
  };
  return {
    arg: '<mode>',
    choices: values,
    fromFlag: (raw, flag) => pick(text(raw, flag), flag),
    spec: { type: 'enum', values },
    fromSpec: (value) => value,
    show: (value) => value,
    documented: (value) => value,
  };
}

// A time limit: 0 (or nothing) means no limit, as for coreutils `timeout`.
export function limitKind(): SettingKind<number | null, number> {
  const none = (ms: number) => (ms === 0 ? null : ms);
  return {
    arg: '<duration>',
    fromFlag: (raw, flag) => none(parseDuration(text(raw, flag), flag)),
    spec: { type: 'duration' },
    fromSpec: none,
    show: (value) => (value === null ? 'none' : durationText(value)),
    documented: (value) => (value === null ? undefined : durationText(value)),
  };
}

// A wait: 0 means not waiting at all.
export function durationKind(): SettingKind<number> {
  return {
    arg: '<duration>',
    fromFlag: (raw, flag) => parseDuration(text(raw, flag), flag),
    spec: { type: 'duration' },
    fromSpec: (value) => value,
    show: durationText,
    documented: durationText,
  };
}

export function sizeKind(): SettingKind<number> {
  return {
    arg: '<size>',
    fromFlag: (raw, flag) => parseSize(text(raw, flag), flag),
    spec: { type: 'size' },
    fromSpec: (value) => value,
    show: sizeText,
    documented: sizeText,
  };
}

export function switchKind(): SettingKind<boolean> {
  return {
    arg: null,
    fromFlag: (raw) => raw === true,
    spec: { type: 'boolean' },
    fromSpec: (value) => value,
    show: String,
    documented: (value) => value,
  };
}

function nonEmptyPath(raw: FlagValue, flag: string, what: string): string {
  const value = text(raw, flag);
  if (value === '') throw new RequestError('usage.path', `${flag}: empty; name ${what}`);
  if (value.includes('\0')) throw new RequestError('usage.path', `${flag}: contains a NUL character`);
  return path.resolve(value);
}

// A directory relative to where safe-run started (a flag) or to the spec file's directory.
export function directoryKind(): SettingKind<string | null, string> {
  return {
    arg: '<dir>',
    fromFlag: (raw, flag) => nonEmptyPath(raw, flag, 'a directory'),
    spec: { type: 'text', what: 'a directory path' },
    fromSpec: (value, baseDir) => path.resolve(baseDir, value),
    show: (value) => value ?? 'none',
    documented: () => undefined,
  };
}

// "inherit" and "null" are words; anything else is a file (write ./null for a file named null).
export function stdinKind(): SettingKind<StdinSource, string> {
  const read = (value: string, base: string): StdinSource =>
    value === 'inherit' || value === 'null'
      ? { kind: value }
      : { kind: 'file', path: path.resolve(base, value) };
  return {
    arg: '<source>',
    fromFlag: (raw, flag) => {
      nonEmptyPath(raw, flag, 'a file, or inherit or null');
      return read(text(raw, flag), process.cwd());
    },
    spec: {
      type: 'text',
      what: '"inherit", "null" or a file path',
      onNull: 'got nothing; for no input write "null" in quotes, since a bare null in YAML means no value',
    },
    fromSpec: read,
    show: (value) => (value.kind === 'file' ? value.path : value.kind),
    documented: (value) => (value.kind === 'file' ? undefined : value.kind),
  };
}

// Names of environment variables, one per use of a repeatable flag.
export function namesKind(): SettingKind<string[]> {
  return {
    arg: '<name>',
    repeatable: true,
    fromFlag: (raw, flag) => {
      const names = Array.isArray(raw) ? raw : [text(raw, flag)];
      for (const name of names) {
        if (!isEnvName(name)) {
          throw new RequestError(
            'usage.name',
            `${flag} ${quote(name)}: not a variable name; give the name (letters, digits, _), not its value`,
          );
        }
      }
      return names;
    },
    spec: { type: 'names' },
    fromSpec: (value) => value,
    show: (value) => (value.length === 0 ? 'none' : value.join(', ')),
    documented: (value) => value,
  };
}

// A file safe-run keeps (the facts ledger): --no-X turns it off.
export function ledgerKind(what: string): SettingKind<string | null, string> {
  return {
    arg: '<file>',
    negation: `do not read or write ${what}`,
    fromFlag: (raw, flag) => (raw === false ? null : nonEmptyPath(raw, flag, 'a file')),
    spec: { type: 'text', what: 'a file path' },
    fromSpec: (value, baseDir) => path.resolve(baseDir, value),
    show: (value) => value ?? 'off',
    documented: () => undefined,
  };
}
