import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, runJson } from '../helpers/cli.js';

// curl and pytest are stand-ins placed first on PATH (no network, no Python needed); grep, diff and
// xargs are the real ones.
const PATH = `${path.join(FIXTURES, 'contracts')}:${process.env.PATH}`;
let dir = '';

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-contracts-'));
  fs.writeFileSync(path.join(dir, 'a.txt'), 'one\ntwo\n');
  fs.writeFileSync(path.join(dir, 'b.txt'), 'one\nthree\n');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const CASES: [title: string, args: string[], code: number, meaning: RegExp, next: RegExp][] = [
  [
    'grep 1',
    ['-c', 'grep nothing-here a.txt'],
    1,
    /grep exit 1: no line was selected/,
    /--ok-codes grep=0,1/,
  ],
  [
    'grep 2',
    ['-c', 'grep x missing.txt'],
    2,
    /grep exit 2: an error occurred/,
    /which for grep means "an error occurred.*No such file/,
  ],
  ['diff 1', ['-c', 'diff a.txt b.txt'], 1, /diff exit 1: the inputs differ/, /--ok-codes diff=0,1/],
  [
    'curl 22',
    ['--', 'curl', '-f', 'http://example.test/404'],
    22,
    /curl exit 22: the server answered with an HTTP error/,
    /its last stderr line: "curl: \(22\)/,
  ],
  [
    'curl 28',
    ['--', 'curl', 'http://example.test/slow'],
    28,
    /curl exit 28: the operation timed out/,
    /often transient: a retry may succeed/,
  ],
  ['pytest 5', ['--', 'pytest'], 5, /pytest exit 5: no tests were collected/, /--ok-codes pytest=0,5/],
  [
    'xargs 123',
    ['-c', 'printf "a\\nb\\n" | xargs -n1 false'],
    123,
    /xargs exit 123: some invocation of the command exited/,
    /which for xargs means/,
  ],
];

describe('exit codes explained by the tool contracts', () => {
  it.each(CASES)(
    '%s: the JSON meaning and next say what the code means',
    async (_, args, code, meaning, next) => {
      const { result, report } = await runJson(args, { cwd: dir, env: { PATH } });
      const blamed = report.stages[report.verdict.blamedStage! - 1]!;
      expect(result.code).toBe(code);
      expect(blamed.exitCode).toBe(code);
      expect(blamed.meaning).toMatch(meaning);
      expect(report.next).toMatch(next);
    },
  );

  it('the table shows the meaning under the stage', async () => {
    const result = await runCli(['--no-facts', '-c', 'grep nothing-here a.txt'], { cwd: dir, env: { PATH } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^ {3}meaning: grep exit 1: no line was selected$/m);
  });

  it('explains without changing the verdict; --ok-codes changes it, and the meaning stays', async () => {
    const { result, report } = await runJson(['--ok-codes', 'grep=0,1', '-c', 'grep nothing-here a.txt'], {
      cwd: dir,
      env: { PATH },
    });
    expect(result.code).toBe(0);
    expect(report.stages[0]!.status).toBe('ok');
    expect(report.stages[0]!.meaning).toMatch(/no line was selected/);
  });

  it('contract: lenient in a spec accepts what the contract calls not an error, and nothing else', async () => {
    const spec = path.join(dir, 'lenient.yaml');
    fs.writeFileSync(
      spec,
      'version: 1\nstages:\n  - run: grep nothing-here a.txt\n    contract: lenient\n  - run: pytest\n    contract: lenient\n',
    );
    const ok = await runJson(['-f', spec], { cwd: dir, env: { PATH } });
    expect(ok.result.code).toBe(0);
    expect(ok.report.stages.map((s) => [s.status, s.exitCode])).toEqual([
      ['ok', 1],
      ['ok', 5],
    ]);
    fs.writeFileSync(spec, 'version: 1\nstages:\n  - run: grep x missing.txt\n    contract: lenient\n');
    const error = await runJson(['-f', spec], { cwd: dir, env: { PATH } });
    expect(error.result.code).toBe(2);
  });

  it('contract: lenient on a program without a known contract is a 125 naming the known ones', async () => {
    const spec = path.join(dir, 'unknown.yaml');
    fs.writeFileSync(spec, 'version: 1\nstages:\n  - run: cat a.txt\n    contract: lenient\n');
    const result = await runCli(['--no-facts', '-f', spec], { cwd: dir, env: { PATH } });
    expect(result.code).toBe(125);
    expect(result.stderr).toMatch(/contract: safe-run knows no exit-code contract for "cat"; known: grep/);
    expect(result.stderr).not.toMatch(/at .*\.js/);
  });
});
