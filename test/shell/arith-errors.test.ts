import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectSameAsBash } from '../helpers/against-bash.js';
import { runCli } from '../helpers/cli.js';

// Arithmetic errors where bash handles them apart: in a subscript or an integer variable's value
// (bash leaves for its top level), in for (( )) (the loop fails). Each row runs under bash and
// safe-run, as -c text and as a script file, and must give bash's stdout and exit code.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'arith-errors-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, LANG: 'C.UTF-8' };

// `bash FILE` against `safe-run --script FILE`, in fresh directories.
async function sameAsScript(text: string, expected: string): Promise<void> {
  const dir = () => fs.mkdtempSync(path.join(root, 'file-'));
  const [a, b] = [dir(), dir()];
  for (const d of [a, b]) fs.writeFileSync(path.join(d, 's.sh'), text);
  const bash = spawnSync('bash', ['--norc', '-o', 'pipefail', 's.sh'], { cwd: a, env, encoding: 'utf8' });
  expect(bash.stdout).toBe(expected);
  const ours = await runCli(['--no-facts', '-q', '--script', 's.sh'], { cwd: b, env });
  expect({ stdout: ours.stdout, code: ours.code }).toEqual({ stdout: bash.stdout, code: bash.status });
}

describe('an arithmetic error in a subscript or an integer variable’s value', () => {
  // [what, text, bash -c's stdout, bash FILE's stdout]
  it.each([
    ['n=1/0 for declare -i n', 'declare -i n; n=1/0; echo after\necho "line2 $?"', '', 'line2 1\n'],
    ['under set -e too', 'set -e; declare -i n; n+=1/0; echo after\necho line2', '', 'line2\n'],
    ['a subscript read', 'a=(1 2); echo ${a[1/0]}; echo after\necho line2', '', 'line2\n'],
    ['a subscript assigned', 'a[1/0]=3; echo after\necho line2', '', 'line2\n'],
    ['a subscript in a list', 'a=([1/0]=3); echo after\necho line2', '', 'line2\n'],
    ['of an unset name in $(( ))', 'echo $((a[1/0])); echo after\necho line2', '', 'line2\n'],
    ['in (( )), let and [[ ]]', 'a=(1); ((a[1/0])); echo after\necho line2', '', 'line2\n'],
    ['let', 'a=(1); let "a[1/0]=2"; echo after\necho line2', '', 'line2\n'],
    ['[[ -eq ]]', 'a=(1); [[ a[1/0] -eq 1 ]]; echo after\necho line2', '', 'line2\n'],
    ['declare, read, export', 'declare -i n=1/0; echo after\necho line2', '', 'line2\n'],
    ['read', 'declare -i n; read n <<< 1/0; echo after\necho line2', '', 'line2\n'],
    ['for NAME in', 'declare -i n; for n in 1/0; do echo in; done; echo after\necho line2', '', 'line2\n'],
    ['unset', 'a=(1 2); unset "a[1/0]"; echo after\necho line2', '', 'line2\n'],
    ['from a function', 'f() { a[1/0]=1; echo in; }; f; echo after\necho line2', '', 'line2\n'],
    ['from eval', 'eval "a[1/0]=1; echo in\necho in2"; echo after\necho line2', '', 'line2\n'],
    ['from a sourced file', 'echo "a[1/0]=1; echo in" > s; . ./s; echo after\necho line2', '', 'line2\n'],
    ['but in a subshell, only it ends', '(a[1/0]=1; echo in); echo "after $?"', 'after 1\n', 'after 1\n'],
    [
      'while (( )) says its own error and goes on',
      'declare -i n; m=1/0; ((n=m)); echo "after $?"',
      'after 1\n',
      'after 1\n',
    ],
    [
      'and a negative subscript before the first discards the line',
      'a=(1 2); a[-5]=1; echo after\necho "line2 $?"',
      'line2 1\n',
      'line2 1\n',
    ],
  ])('%s', async (_what, text, dashC, file) => {
    await expectSameAsBash(text, dashC, root, env);
    await sameAsScript(text, file);
  });
});

describe('an error in for (( ))’s arithmetic fails the loop, and the text goes on', () => {
  it.each([
    [
      'in its test',
      'for ((i=0; i<1/0; i++)); do echo x; done; echo "after $?"\necho line2',
      'after 1\nline2\n',
    ],
    ['under set -e too', 'set -e; for ((i=1/0; i<1; i++)); do echo x; done; echo "after $?"', 'after 1\n'],
    ['in its step', 'for ((i=0; i<2; i+=1/0)); do echo x; done; echo "after $?"', 'x\nafter 1\n'],
    ['a syntax error', 'for ((i=0; i<2; i++ +)); do echo x; done || echo failed', 'x\nfailed\n'],
    [
      'in a function',
      'f() { for ((i=0; i<1/0; i++)); do :; done; echo "in $?"; }; f; echo "after $?"',
      'in 1\nafter 0\n',
    ],
    ['but set -u ends the text', 'set -u; for ((i=0; i<n; i++)); do echo x; done; echo after', ''],
  ])('%s', async (_what, text, expected) => {
    await expectSameAsBash(text, expected, root, env);
    await sameAsScript(text, expected);
  });
});
