import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { isRequestError } from '../../src/errors.js';
import { parseSpec } from '../../src/spec-file/load-spec.js';

const root = mkdtempSync(join(tmpdir(), 'safe-run-delivery-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function deliveryOf(lines: string) {
  const text = `version: 1\n${lines}\nstages:\n  - run: [cat]\n`;
  return parseSpec(text, { label: 'p.yaml', format: 'yaml', baseDir: root }).delivery;
}

function problemOf(lines: string): string {
  try {
    deliveryOf(lines);
  } catch (error) {
    if (isRequestError(error)) return error.message;
    throw error;
  }
  throw new Error('no problem reported');
}

describe('spec keys for a staged output', () => {
  test('output is relative to the spec file, and the checks are kept as written', () => {
    expect(
      deliveryOf(
        'output: out/r.txt\nkeep-partial: true\nexpect: [nonempty, "lines>=2"]\nexpect-cmd: jq empty',
      ),
    ).toEqual({
      output: join(root, 'out/r.txt'),
      keepPartial: true,
      expect: ['nonempty', 'lines>=2'],
      expectCmd: ['jq empty'],
    });
  });

  test('expect-cmd takes a list too', () => {
    expect(deliveryOf('output: o\nexpect-cmd: [jq empty, "grep -q x"]')?.expectCmd).toEqual([
      'jq empty',
      'grep -q x',
    ]);
  });

  test('an unknown check is one line naming the forms there are', () => {
    expect(problemOf('output: o\nexpect: [nonempty, lines>2]')).toBe(
      'p.yaml: expect[1]: expected one of nonempty, json, lines>=N, lines<=N or lines==N; got "lines>2"',
    );
  });
});
