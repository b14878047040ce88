import { describe, expect, test } from 'vitest';
import { helpDefault, parseCli } from '../../src/cli/options.js';
import { DEFAULT_SETTINGS } from '../../src/settings/defaults.js';
import { settingRows } from '../../src/settings/table.js';
import { PIPELINE_KEYS, specJsonSchema } from '../../src/spec-file/schema.js';
import { specValueSchema } from '../../src/spec-file/value-schemas.js';

const help = parseCli(['--help'], '0.0.0').answered ?? '';
const properties = (specJsonSchema() as { properties: Record<string, { default?: unknown; enum?: unknown }> })
  .properties;

// The help line of a flag, joined when commander wraps it.
function helpLine(flag: string): string {
  const start = help.search(new RegExp(`^\\s+${flag}\\b`, 'm'));
  expect(start, `${flag} is in --help`).toBeGreaterThanOrEqual(0);
  const rest = help.slice(start).split('\n');
  const lines = [
    rest[0]!,
    ...rest.slice(1).filter((_, i, all) => all.slice(0, i + 1).every((l) => /^\s{20,}/.test(l))),
  ];
  return lines.map((line) => line.trim()).join(' ');
}

describe('the settings table', () => {
  const rows = settingRows();

  test('gives DEFAULT_SETTINGS, one row per setting', () => {
    expect(rows.map((row) => row.key).sort()).toEqual(Object.keys(DEFAULT_SETTINGS).sort());
    for (const row of rows) expect(DEFAULT_SETTINGS[row.key], row.key).toEqual(row.default);
  });

  test('gives every flag in --help, with its argument, its choices and its default', () => {
    for (const row of rows) {
      const line = helpLine(row.flag);
      const arg = row.arg ?? row.kind.arg;
      if (arg !== null) expect(line).toContain(`${row.flag} ${arg}`);
      expect(line).toContain(`${row.help}${helpDefault(row.default, row.kind.show)}`);
      for (const choice of row.kind.choices ?? []) expect(line).toContain(choice);
      if (row.kind.negation) expect(help).toContain(`--no-${row.flag.slice(2)}`);
    }
  });

  test('gives the spec schema its setting keys, in table order, with their defaults and choices', () => {
    const specKeys = rows.flatMap((row) => (row.specKey === null ? [] : [row.specKey]));
    // The keys of --output and its checks (docs/publishing-outputs.md) are delivery, not settings.
    const delivery = ['output', 'keep-partial', 'expect', 'expect-cmd'];
    const notSettings = ['$schema', 'version', 'stages', ...delivery];
    expect(PIPELINE_KEYS.filter((key) => !notSettings.includes(key))).toEqual(specKeys);
    for (const row of rows) {
      if (row.specKey === null) continue;
      const property = properties[row.specKey]!;
      expect(property.default, row.specKey).toEqual(row.kind.documented(row.default));
      if (row.kind.choices) expect(property.enum, row.specKey).toEqual([...row.kind.choices]);
    }
  });

  test('reads every flag the way a spec file reads the same key', () => {
    const samples: Record<string, string> = {
      '--policy': 'last',
      '--sigpipe': 'fail',
      '--timeout': '1.5',
      '--idle-timeout': '2m',
      '--kill-after': '0',
      '--drain-timeout': '250ms',
      '--max-stdout': '1KiB',
      '--max-stderr': '10',
      '--max-log': '1MB',
      '--on-limit': 'kill',
      '--live-stdout': 'capped',
      '--leftovers': 'keep',
    };
    for (const row of rows) {
      const text = samples[row.flag];
      if (text === undefined || row.specKey === null) continue;
      const fromSpec = specValueSchema(row.kind.spec).parse(text);
      expect(row.kind.fromFlag(text, row.flag), row.flag).toEqual(row.kind.fromSpec(fromSpec, '/'));
    }
  });
});
