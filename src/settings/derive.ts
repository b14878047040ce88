import type { Settings } from '../types.js';
import type { FlagValue } from './kinds.js';
import { settingRows } from './table.js';

// The derivations of SETTINGS_TABLE that need no library: defaults, the merge of flags, the merge of
// a spec file's keys, and the effective settings as a user would write them.

// Objects built key by key from the table: SettingsTable's mapped type is what makes them complete
// and well typed, which TypeScript cannot follow through Object.fromEntries.
type Built = Record<string, unknown>;

export function defaultSettings(): Settings {
  const out: Built = {};
  for (const row of settingRows()) out[row.key] = structuredClone(row.default);
  return out as unknown as Settings;
}

// The settings the flags set; `read` gives a flag's value (by its long name), or undefined when absent.
export function settingsFromFlags(read: (flag: string) => FlagValue | undefined): Partial<Settings> {
  const out: Built = {};
  for (const row of settingRows()) {
    const raw = read(row.flag);
    if (raw !== undefined) out[row.key] = row.kind.fromFlag(raw, row.flag);
  }
  return out as Partial<Settings>;
}

// The settings a validated spec file sets (values as its schema gave them); relative paths are
// relative to baseDir.
export function settingsFromSpec(
  spec: Readonly<Record<string, unknown>>,
  baseDir: string,
): Partial<Settings> {
  const out: Built = {};
  for (const row of settingRows()) {
    const value = row.specKey === null ? undefined : spec[row.specKey];
    if (value !== undefined) out[row.key] = row.kind.fromSpec(value, baseDir);
  }
  return out as Partial<Settings>;
}

// Every effective setting under the name a spec file gives it (or the flag's), as it would be written.
export function showSettings(settings: Settings): [string, string][] {
  return settingRows().map((row) => [row.specKey ?? row.flag.slice(2), row.kind.show(settings[row.key])]);
}
