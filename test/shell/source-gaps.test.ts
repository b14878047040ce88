import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectSameAsBash } from '../helpers/against-bash.js';
import { runCli } from '../helpers/cli.js';

// BASH_SOURCE and BASH_LINENO, which CI scripts read to find their own directory
// (script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)): safe-run once refused them. Each row runs
// under bash and safe-run in a fresh directory; bash's stdout is written in the row.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'source-gaps-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, LANG: 'C.UTF-8' };

const same = (text: string, expected: string) => expectSameAsBash(text, expected, root, env);

// Files sourced by the rows: lib/lib.sh sources lib/inner.sh by its own directory; bin/onpath.sh is
// found on PATH.
const LIB = [
  'echo "lib: ${BASH_SOURCE[*]} n=${#BASH_SOURCE[@]} s=$BASH_SOURCE ln=${BASH_LINENO[*]} fn=${FUNCNAME[*]}"',
  'lf() { echo "lf: ${BASH_SOURCE[*]} ln=${BASH_LINENO[*]} fn=${FUNCNAME[*]}"; }',
  'lf',
  'source "$(dirname "${BASH_SOURCE[0]}")/inner.sh"',
  '',
].join('\n');
const INNER = '\necho "inner: ${BASH_SOURCE[*]} ln=${BASH_LINENO[*]}"\ndeclare -p BASH_SOURCE BASH_LINENO\n';

function writeTree(dir: string): void {
  fs.mkdirSync(path.join(dir, 'lib'));
  fs.mkdirSync(path.join(dir, 'bin'));
  fs.writeFileSync(path.join(dir, 'lib/lib.sh'), LIB);
  fs.writeFileSync(path.join(dir, 'lib/inner.sh'), INNER);
  fs.writeFileSync(
    path.join(dir, 'bin/onpath.sh'),
    'echo "onpath: ${BASH_SOURCE[*]} ln=${BASH_LINENO[*]}"\n',
  );
}

describe('in a -c text', () => {
  it.each([
    [
      'at the top: declared, empty, unset when read',
      'echo "[${BASH_SOURCE[*]}] n=${#BASH_SOURCE[@]} [$BASH_SOURCE] [${BASH_LINENO[*]}] ${#BASH_LINENO[@]}"\ndeclare -p BASH_SOURCE BASH_LINENO; echo ${BASH_SOURCE-unset} ${BASH_SOURCE[0]-unset0}',
      '[] n=0 [] [] 0\ndeclare -a BASH_SOURCE=()\ndeclare -a BASH_LINENO=()\nunset unset0\n',
    ],
    [
      'in functions: environment, and the line of each call',
      'f() {\n  echo "f: ${BASH_SOURCE[*]} n=${#BASH_SOURCE[@]} ln=${BASH_LINENO[*]}"; declare -p BASH_SOURCE BASH_LINENO\n  g\n}\ng() { echo "g: ${BASH_SOURCE[*]} ${BASH_LINENO[*]} ${!BASH_SOURCE[*]} ${BASH_SOURCE[-1]:0:3}"; }\nf\nx=$(g); echo "$x"; (g)',
      'f: environment n=1 ln=6\ndeclare -a BASH_SOURCE=([0]="environment")\ndeclare -a BASH_LINENO=([0]="6")\ng: environment environment 3 6 0 1 env\ng: environment 7 0 env\ng: environment 7 0 env\n',
    ],
    [
      'set -u: $BASH_SOURCE at the top is unbound, ${#BASH_SOURCE[@]} and ${BASH_SOURCE[@]} are not',
      'set -u; echo "${#BASH_SOURCE[@]}" "${BASH_SOURCE[@]}" "${BASH_LINENO[@]}" ok; (echo "$BASH_SOURCE") 2>&1; f() { echo "${BASH_SOURCE[1]}"; }; f 2>&1',
      '0 ok\nbash: line 1: BASH_SOURCE: unbound variable\nenvironment: line 1: BASH_SOURCE[1]: unbound variable\n',
    ],
    [
      'assigned: dropped without a word; unset: cannot unset',
      'BASH_SOURCE=x; echo "$? [$BASH_SOURCE]"; f() { BASH_SOURCE[0]=y; BASH_LINENO=3; declare -p BASH_SOURCE BASH_LINENO; }; f\nBASH_SOURCE=x env | grep -c BASH_SOURCE; unset BASH_SOURCE 2>&1; echo $?; unset -v "BASH_LINENO[0]" 2>&1; echo $?',
      '0 []\ndeclare -a BASH_SOURCE=([0]="environment")\ndeclare -a BASH_LINENO=([0]="1")\n0\nbash: line 2: unset: BASH_SOURCE: cannot unset\n1\nbash: line 2: unset: BASH_LINENO: cannot unset\n1\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });

  it('sourced files: by a relative path, from a function, nested', async () => {
    const dir = fs.mkdtempSync(path.join(root, 'tree-'));
    writeTree(dir);
    await same(
      `cd ${dir}\nsource lib/lib.sh\nh() { . lib/lib.sh; }; h`,
      [
        'lib: lib/lib.sh n=1 s=lib/lib.sh ln=2 fn=',
        'lf: lib/lib.sh lib/lib.sh ln=3 2 fn=lf source',
        'inner: lib/inner.sh lib/lib.sh ln=4 2',
        'declare -a BASH_SOURCE=([0]="lib/inner.sh" [1]="lib/lib.sh")',
        'declare -a BASH_LINENO=([0]="4" [1]="2")',
        'lib: lib/lib.sh environment n=2 s=lib/lib.sh ln=3 3 fn=source h',
        'lf: lib/lib.sh lib/lib.sh environment ln=3 3 3 fn=lf source h',
        'inner: lib/inner.sh lib/lib.sh environment ln=4 3 3',
        'declare -a BASH_SOURCE=([0]="lib/inner.sh" [1]="lib/lib.sh" [2]="environment")',
        'declare -a BASH_LINENO=([0]="4" [1]="3" [2]="3")',
        '',
      ].join('\n'),
    );
  });
});

// The script, run as `bash NAME` and `safe-run --script NAME` from its directory: NAME as given is
// BASH_SOURCE's last element.
const MAIN = [
  'echo "top: ${BASH_SOURCE[*]} n=${#BASH_SOURCE[@]} s=$BASH_SOURCE ln=${BASH_LINENO[*]}"',
  'declare -p BASH_SOURCE BASH_LINENO',
  'f() {',
  '  echo "f: ${BASH_SOURCE[*]} ln=${BASH_LINENO[*]} fn=${FUNCNAME[*]}"',
  '  g',
  '}',
  'g() { echo "g: ${BASH_SOURCE[*]} ln=${BASH_LINENO[*]}"; }',
  'f',
  'source lib/lib.sh',
  'h() { . lib/lib.sh; }',
  'h',
  'PATH=$PWD/bin:$PATH',
  '. onpath.sh',
  'script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd); echo "dir=$script_dir"',
  'lf',
  '',
].join('\n');

function mainExpected(name: string, dir: string): string {
  return [
    `top: ${name} n=1 s=${name} ln=0`,
    `declare -a BASH_SOURCE=([0]="${name}")`,
    'declare -a BASH_LINENO=([0]="0")',
    `f: ${name} ${name} ln=8 0 fn=f main`,
    `g: ${name} ${name} ${name} ln=5 8 0`,
    `lib: lib/lib.sh ${name} n=2 s=lib/lib.sh ln=9 0 fn=`,
    `lf: lib/lib.sh lib/lib.sh ${name} ln=3 9 0 fn=lf source main`,
    `inner: lib/inner.sh lib/lib.sh ${name} ln=4 9 0`,
    `declare -a BASH_SOURCE=([0]="lib/inner.sh" [1]="lib/lib.sh" [2]="${name}")`,
    'declare -a BASH_LINENO=([0]="4" [1]="9" [2]="0")',
    `lib: lib/lib.sh ${name} ${name} n=3 s=lib/lib.sh ln=10 11 0 fn=source h main`,
    `lf: lib/lib.sh lib/lib.sh ${name} ${name} ln=3 10 11 0 fn=lf source h main`,
    `inner: lib/inner.sh lib/lib.sh ${name} ${name} ln=4 10 11 0`,
    `declare -a BASH_SOURCE=([0]="lib/inner.sh" [1]="lib/lib.sh" [2]="${name}" [3]="${name}")`,
    'declare -a BASH_LINENO=([0]="4" [1]="10" [2]="11" [3]="0")',
    `onpath: ${dir}/bin/onpath.sh ${name} ln=13 0`,
    `dir=${dir}`,
    `lf: lib/lib.sh ${name} ln=15 0 fn=lf main`,
    '',
  ].join('\n');
}

describe('in a script file', () => {
  it.each([['main.sh'], ['./main.sh'], ['absolute']])('named %s', async (given) => {
    const dir = fs.mkdtempSync(path.join(root, 'script-'));
    writeTree(dir);
    fs.writeFileSync(path.join(dir, 'main.sh'), MAIN);
    const name = given === 'absolute' ? path.join(dir, 'main.sh') : given;
    const bash = spawnSync('bash', ['--norc', '-o', 'pipefail', name], { cwd: dir, env, encoding: 'utf8' });
    expect(bash.stdout).toBe(mainExpected(name, dir));
    const ours = await runCli(['--no-facts', '-q', '--script', name], { cwd: dir, env });
    expect({ code: ours.code, stdout: ours.stdout }).toEqual({ code: bash.status, stdout: bash.stdout });
  });
});

// local - saves the set options; the function's return puts them back (shopt's stay, as in bash).
describe('local -', () => {
  it.each([
    [
      'set -e, -u, -x and -o pipefail set in the function are taken back',
      'exec 2>&1; set +o pipefail; f() { local -; set -euxo pipefail; echo in $-; }; f; echo out $-; shopt -o pipefail',
      '+ echo in ehuxBc\nin ehuxBc\nout hBc\npipefail       \toff\n',
    ],
    [
      'set +e in the function: errexit is on again after it',
      'f() { local -; set +e; false; echo in $-; }; set -e; f; echo out $-; false; echo no',
      'in hBc\nout ehBc\n',
    ],
    [
      'the options of the moment of local -, the last one counting; a function it calls changes them until then',
      'f() { set -e; local -; set +e; }; f; echo $-; g() { local -; set -u; local -; set -e; }; g; echo $-\nh() { local -; set -u; k; echo h $-; }; k() { set -f; }; h; echo $-',
      'ehBc\nehuBc\nh efhuBc\nehuBc\n',
    ],
    [
      'with other names, after --, with return; not shopt, positional parameters, declare -, nor outside a function',
      'f() { local - x=1; echo $x; set -f; return 3; }; f; echo $? $-\ng() { local -- -; shopt -s nullglob; set -- a; set -C; }; set -- p; g; shopt nullglob; echo $@ $-\n{ local -; echo $?; h() { declare -; set -e; }; h; echo $-; } 2>&1',
      "1\n3 hBc\nnullglob       \ton\np hBc\nbash: line 3: local: can only be used in a function\n1\nenvironment: line 3: declare: `-': not a valid identifier\nehBc\n",
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

// unset -n NAME: the nameref itself, not the variable it names; a variable that is no nameref stays.
describe('unset -n', () => {
  it.each([
    [
      'a nameref is unset, the variable it names kept; a plain variable is left as it is',
      'declare -n r=x; x=1; unset -n r; echo ${r-unset} $x; declare -p r x 2>&1\ny=2; unset -n y; echo ${y-unset}\nf() { local -n r=x; unset -n r; echo ${r-u}; }; declare -n r=x; f; echo $r',
      'unset 1\nbash: line 1: declare: r: not found\ndeclare -- x="1"\n2\nu\n1\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});
