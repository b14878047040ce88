import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

// A consumer's project: `safe-run` linked into its node_modules as `npm link` would, compiled by tsc
// against the declarations package.json names, then run.
const CONSUMER = `import { planFromInline, RequestError, run, type Report } from 'safe-run';

const report: Report = await run(planFromInline('seq 3 | wc -l', { facts: null }));
// @ts-expect-error the exit code is a number: the declarations are real types, not any
const wrong: string = report.exitCode;
let refused = '';
try {
  planFromInline('coproc cat');
} catch (error) {
  if (error instanceof RequestError) refused = error.code;
}
console.log(JSON.stringify({ ok: report.ok, lines: report.stages[1]?.stdout.text, refused, wrong: typeof wrong }));
`;

let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-consumer-'));
  fs.mkdirSync(path.join(dir, 'node_modules'));
  fs.symlinkSync(ROOT, path.join(dir, 'node_modules', 'safe-run'), 'dir');
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'consumer', type: 'module', private: true }),
  );
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        outDir: 'out',
        types: ['node'],
        typeRoots: [path.join(ROOT, 'node_modules', '@types')],
      },
      files: ['main.ts'],
    }),
  );
  fs.writeFileSync(path.join(dir, 'main.ts'), CONSUMER);
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the package as a TypeScript dependency', () => {
  it('names declarations that exist', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(fs.existsSync(path.join(ROOT, pkg.types))).toBe(true);
    expect(fs.existsSync(path.join(ROOT, pkg.exports['.'].types))).toBe(true);
  });

  it('type-checks an import of safe-run, and the compiled program runs a pipeline', () => {
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    execFileSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8' });
    const printed = execFileSync(process.execPath, [path.join(dir, 'out', 'main.js')], { encoding: 'utf8' });
    expect(JSON.parse(printed)).toEqual({
      ok: true,
      lines: '3\n',
      refused: expect.any(String),
      wrong: 'number',
    });
    expect(JSON.parse(printed).refused).not.toBe('');
    // tsc type-checks a whole program: minutes, not seconds, on a loaded two-core machine.
  }, 240_000);
});
