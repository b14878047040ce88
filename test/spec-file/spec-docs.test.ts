import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { PIPELINE_KEYS, STAGE_KEYS, specJsonSchema, specJsonSchemaText } from '../../src/spec-file/schema.js';

const root = join(import.meta.dirname, '../..');

describe('docs/schema/spec.schema.json', () => {
  test('is what the schema generates (regenerate: node scripts/gen-spec-schema.mjs)', () => {
    const committed = readFileSync(join(root, 'docs/schema/spec.schema.json'), 'utf8');
    // Compared after a JSON round trip, so that reformatting the file is not drift but any change is.
    expect(`${JSON.stringify(JSON.parse(committed), null, 2)}\n`).toBe(specJsonSchemaText());
  });

  test('refuses unknown keys at both levels and requires version, stages and run', () => {
    const schema = specJsonSchema() as {
      additionalProperties: boolean;
      required: string[];
      properties: { stages: { items: { additionalProperties: boolean; required: string[] } } };
    };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(['version', 'stages']);
    expect(schema.properties.stages.items.additionalProperties).toBe(false);
    expect(schema.properties.stages.items.required).toEqual(['run']);
  });
});

interface KeyRow {
  key: string;
  defaultCell: string;
}

// The rows of the first table after a "## <heading>" line in docs/spec.md.
function keyTable(markdown: string, heading: string): KeyRow[] {
  const lines = markdown.split('\n');
  const start = lines.indexOf(`## ${heading}`);
  expect(start, `docs/spec.md has a "## ${heading}" section`).toBeGreaterThanOrEqual(0);
  const rows: KeyRow[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('## ')) break;
    const cells = line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((cell) => cell.trim());
    const key = /^`([^`]+)`$/.exec(cells[0] ?? '')?.[1];
    if (key !== undefined) rows.push({ key, defaultCell: cells[2] ?? '' });
  }
  return rows;
}

function schemaDefaults(properties: Record<string, { default?: unknown }>): Record<string, string | null> {
  return Object.fromEntries(
    Object.entries(properties).map(([key, property]) => {
      const value = property.default;
      return [key, value === undefined ? null : typeof value === 'string' ? value : JSON.stringify(value)];
    }),
  );
}

// A default written as one code span (`5s`) must be the schema's default; prose (none, required)
// is for keys without one.
function documentedDefaults(rows: KeyRow[]): Record<string, string | null> {
  return Object.fromEntries(rows.map((row) => [row.key, /^`([^`]+)`$/.exec(row.defaultCell)?.[1] ?? null]));
}

describe('docs/spec.md', () => {
  const markdown = readFileSync(join(root, 'docs/spec.md'), 'utf8');
  const schema = specJsonSchema() as {
    properties: Record<string, { default?: unknown }> & {
      stages: { items: { properties: Record<string, { default?: unknown }> } };
    };
  };

  test('lists exactly the pipeline keys the schema has, in its order', () => {
    expect(keyTable(markdown, 'Pipeline keys').map((row) => row.key)).toEqual(PIPELINE_KEYS);
  });

  test('lists exactly the stage keys the schema has, in its order', () => {
    expect(keyTable(markdown, 'Stage keys').map((row) => row.key)).toEqual(STAGE_KEYS);
  });

  test('gives the same defaults as the schema', () => {
    expect(documentedDefaults(keyTable(markdown, 'Pipeline keys'))).toEqual(
      schemaDefaults(schema.properties),
    );
    expect(documentedDefaults(keyTable(markdown, 'Stage keys'))).toEqual(
      schemaDefaults(schema.properties.stages.items.properties),
    );
  });
});
