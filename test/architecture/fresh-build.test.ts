import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a build script in plain JavaScript, without declarations
import { BUILD_INPUTS, STAMP_FILE, sourceDigests, writeStamp } from '../../scripts/build-stamp.mjs';
import { ROOT } from '../helpers/cli.js';
import { assertFreshBuild } from '../helpers/fresh-build.js';
import { putFile, type Scratch, scratchDir } from '../helpers/index.js';

// The suite refuses to run against a dist/ built from other sources (vitest's globalSetup,
// test/helpers/fresh-build.ts). Proven on copies: the real src/ is never touched.
// Made by the first test that needs it, so that a run filtered to none of them leaves nothing.
let scratch: Scratch | null = null;
const work = () => (scratch ??= scratchDir('sr-fresh-build-'));
afterAll(() => scratch?.remove());

// The build's inputs and dist/'s record of them, copied as they are.
function copyOfCheckout(): string {
  const copy = work().fresh();
  for (const entry of BUILD_INPUTS as string[]) {
    if (fs.existsSync(path.join(ROOT, entry)))
      fs.cpSync(path.join(ROOT, entry), path.join(copy, entry), { recursive: true });
  }
  fs.mkdirSync(path.join(copy, 'dist'));
  fs.copyFileSync(path.join(ROOT, STAMP_FILE), path.join(copy, STAMP_FILE));
  return copy;
}

const problem = (root: string) => {
  try {
    assertFreshBuild(root);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('a test run against dist/', () => {
  it('starts when the sources are those dist/ was built from, whatever their times say', () => {
    const copy = copyOfCheckout();
    expect(problem(copy)).toBeNull();
    // A fresh clone, or an editor that saved nothing new: later times, same contents.
    const later = new Date(Date.now() + 3_600_000);
    fs.utimesSync(path.join(copy, 'src/format-units.ts'), later, later);
    expect(problem(copy)).toBeNull();
  });

  it('fails naming the source changed since the build', () => {
    const copy = copyOfCheckout();
    fs.appendFileSync(path.join(copy, 'src/format-units.ts'), '// edited after the build\n');
    expect(problem(copy)).toBe(
      "safe-run's tests: src/format-units.ts changed since dist/ was built: run npm run build",
    );
  });

  it('fails on a source added or removed, and says how many more differ', () => {
    const copy = copyOfCheckout();
    putFile(copy, 'src/new-part.ts', 'export const added = 1;\n');
    fs.rmSync(path.join(copy, 'src/format-units.ts'));
    expect(problem(copy)).toBe(
      "safe-run's tests: src/new-part.ts is new, src/format-units.ts was removed since dist/ was built: run npm run build",
    );
    for (const name of ['a', 'b', 'c']) putFile(copy, `src/more-${name}.ts`, '\n');
    expect(problem(copy)).toMatch(
      /^safe-run's tests: (\S+ is new, ){2}\S+ is new \(and 2 more\) since dist\/ was built/,
    );
  });

  it('fails on a build change too, and on a dist/ without its record', () => {
    const copy = copyOfCheckout();
    fs.appendFileSync(path.join(copy, 'scripts/build-cli.mjs'), '\n');
    expect(problem(copy)).toContain('scripts/build-cli.mjs changed since dist/ was built');
    fs.rmSync(path.join(copy, STAMP_FILE));
    expect(problem(copy)).toBe(
      `safe-run's tests: ${STAMP_FILE} is missing or unreadable: dist/ is not a build of these sources; run npm run build`,
    );
  });

  it('records what the build read in the same form it is checked', () => {
    const tree = work().fresh();
    putFile(tree, 'src/a.ts', 'export const a = 1;\n');
    putFile(tree, 'package.json', '{}\n');
    fs.mkdirSync(path.join(tree, 'dist'));
    writeStamp(path.join(tree, 'dist'), sourceDigests(tree));
    expect(Object.keys(JSON.parse(fs.readFileSync(path.join(tree, STAMP_FILE), 'utf8')).files)).toEqual([
      'src/a.ts',
      'package.json',
    ]);
    expect(problem(tree)).toBeNull();
    putFile(tree, 'src/a.ts', 'export const a = 2;\n');
    expect(problem(tree)).toContain('src/a.ts changed');
  });
});
