import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { loadSpec } from '../../src/spec-file/load-spec.js';
import { findOnPath, scratchDir } from '../helpers/index.js';

const examplesDir = join(import.meta.dirname, '../../docs/examples');
const examples = readdirSync(examplesDir).filter((file) => file.endsWith('.yaml'));
const dir = scratchDir('safe-run-spec-');
afterAll(() => dir.remove());

describe('docs/examples', () => {
  test('has the examples docs/spec.md describes', () => {
    expect(examples).toEqual(
      expect.arrayContaining([
        'ci-test-with-log.yaml',
        'data-export.yaml',
        'grep-no-match-ok.yaml',
        'first-failure.yaml',
      ]),
    );
  });

  test.each(examples)('%s is a valid spec whose programs are all on PATH', (file) => {
    const spec = loadSpec(join(examplesDir, file));
    expect(spec.stages.length).toBeGreaterThan(1);
    for (const stage of spec.stages) expect(findOnPath(stage.argv[0]!), stage.argv[0]).not.toBeNull();
  });

  test.each(examples)('%s loads the same from its JSON form', (file) => {
    const path = join(examplesDir, file);
    // Written beside a copy of the YAML, so that relative paths resolve against the same directory.
    const json = dir.write(
      file.replace(/\.yaml$/, '.json'),
      JSON.stringify(parse(readFileSync(path, 'utf8'))),
    );
    const yaml = dir.write(file, readFileSync(path, 'utf8'));
    expect(loadSpec(json)).toEqual(loadSpec(yaml));
  });
});
