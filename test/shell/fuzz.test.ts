import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { isRequestError } from '../../src/errors.js';
import { parseText } from '../../src/shell/plan-shell.js';
import { parseScript } from '../../src/shell/syntax/parse.js';
import { runSafeRun, snapshot } from '../helpers/shell-oracle.js';
import { testSize } from '../helpers/sizes.js';

// Random text: never a trace or a hang; whatever safe-run accepts, it runs as bash runs it.

const chars = fc.constantFrom(...'ab $*?~"\'\\|&;<>(){}#=\n\t-:[]!`%/.0129'.split(''));
const randomText = fc.string({ unit: chars, maxLength: 30 });

describe('parsing random text', () => {
  it('either parses or refuses with a one-line message and a column, quickly', () => {
    fc.assert(
      fc.property(randomText, (text) => {
        try {
          parseText(text, null);
        } catch (error) {
          if (!isRequestError(error)) throw error;
          expect(error.message).toMatch(/^-c: /);
          expect(error.message).not.toMatch(/[\n\r]/);
          if (error.column !== null) expect(error.column).toBeGreaterThanOrEqual(1);
        }
      }),
      { seed: 20261201, numRuns: 3000 },
    );
  });

  it('never takes long, even on long hostile text', () => {
    const hostile = `${'$'.repeat(2000)}${'{'.repeat(2000)}${"'a".repeat(2000)}${'<<x\n'.repeat(500)}`;
    const t0 = performance.now();
    for (let i = 0; i < hostile.length; i += 500) {
      try {
        parseScript(hostile.slice(0, i));
      } catch (error) {
        if (!isRequestError(error)) throw error;
      }
    }
    // Not a speed assertion: a parser that backtracked exponentially would not return at all.
    expect(performance.now() - t0).toBeGreaterThanOrEqual(0);
  });
});

// Texts built from words that are programs, arguments that expand, and operators in any order.
const token = fc.constantFrom(
  'echo',
  'printf',
  "'[%s]\\n'",
  'a',
  '"b c"',
  '$X',
  '"$X"',
  '~',
  '*',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
  '${X:-d}',
  'true',
  'false',
  'cat',
  'wc -c',
  '|',
  '&&',
  '||',
  ';',
  '\n',
  '> f1',
  '>> f2',
  '2>&1',
  '< f1',
  '2> f3',
  '#',
  'cd',
  'd',
  '&>f4',
);
const tokenText = fc.array(token, { minLength: 1, maxLength: 9 }).map((tokens) => tokens.join(' '));

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shell-fuzz-'));
const work = path.join(root, 'w');
const home = path.join(root, 'h');
function fixture(): void {
  fs.rmSync(work, { recursive: true, force: true });
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(path.join(work, 'd'), { recursive: true });
  fs.mkdirSync(home);
  fs.writeFileSync(path.join(work, 'a'), 'x\n');
  fs.writeFileSync(path.join(work, 'b c'), 'y\n');
}
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function bash(text: string, env: Record<string, string>): Promise<{ exit: number; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-o', 'pipefail', '-c', text], {
      cwd: work,
      env,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const out: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.on('close', (code) => resolve({ exit: code ?? -1, stdout: Buffer.concat(out).toString() }));
  });
}

describe('running what is accepted', () => {
  it('gives the exit code, stdout and files bash gives', async () => {
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, X: 'p  *', PWD: work };
    const texts = fc.sample(tokenText, {
      numRuns: testSize(30, 80, 'SHELL_FUZZ_RUNS'),
      seed: Number(process.env.SHELL_FUZZ_SEED ?? 20261202),
    });
    let compared = 0;
    for (const text of texts) {
      try {
        parseText(text, null);
      } catch (error) {
        if (!isRequestError(error)) throw error;
        continue;
      }
      fixture();
      const expected = await bash(text, env);
      const expectedFiles = snapshot(root);
      fixture();
      const ours = await runSafeRun(text, work, env, [], root);
      compared += 1;
      expect({ text, exit: ours.exit, stdout: ours.stdout, files: ours.files }, ours.stderr).toEqual({
        text,
        exit: expected.exit,
        stdout: expected.stdout,
        files: expectedFiles,
      });
    }
    expect(compared).toBeGreaterThan(15);
  }, 120_000);
});
