import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { againstBash } from '../helpers/against-bash.js';
import { runCli } from '../helpers/cli.js';

// Texts on which safe-run's interpreter once answered differently from bash -o pipefail (found by
// measuring it on another shell interpreter's own test cases, scripts/mvdan/): each row is run by
// both in a fresh directory and must give bash's exit code and stdout; bash's stdout is written in
// the row too, so that a machine whose bash does otherwise fails the row instead of passing it.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bash-gaps-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, LANG: 'C.UTF-8' };

async function same(text: string, expected: string): Promise<void> {
  const cwd = fs.mkdtempSync(path.join(root, 'case-'));
  const { bash, ours } = await againstBash(text, { cwd, env });
  expect(bash.stdout).toBe(expected);
  expect(ours).toEqual({ code: bash.code, stdout: bash.stdout });
}

describe('background jobs', () => {
  it.each([
    ['$? after `cmd &` is 0, whatever the job does', 'false; false & echo "[$?]"; wait', '[0]\n'],
    [
      'a job of builtins only has a $! that wait knows',
      'false & p=$!; [ -n "$p" ] && echo set; wait $p; echo $?',
      'set\n1\n',
    ],
    [
      'wait $a $b gives the last one’s status',
      '(exit 3) & a=$!; (exit 5) & b=$!; wait $a $b; echo $?',
      '5\n',
    ],
    ['a pipeline of builtins in the background', 'echo x | false | true & wait $!; echo $?', '1\n'],
    [
      'a job’s own wait waits for its own jobs only',
      '{ echo in & wait; echo job; } & wait; echo out',
      'in\njob\nout\n',
    ],
    [
      'a subshell has no jobs of its parent',
      'sleep 0.1 & (wait $! 2>/dev/null; echo "sub $?"); wait; echo "top $?"',
      'sub 127\ntop 0\n',
    ],
    ['wait names a word that is no pid or job', 'wait nope 2>/dev/null; echo $?', '1\n'],
    ['kill $! ends a job of builtins', 'while :; do :; done & kill $!; wait $!; echo $?', '143\n'],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('extended patterns', () => {
  it.each([
    [
      'after a line that turns extglob on',
      'shopt -s extglob\ntouch q1 q22 qx; echo q+([0-9]) q!(1|22)',
      'q1 q22 qx\n',
    ],
    [
      'in case patterns',
      'shopt -s extglob\nfor w in ab.c x.sig; do case $w in !(*.sig)) echo "$w";; esac; done',
      'ab.c\n',
    ],
    [
      'in a parameter’s pattern and from a variable in [[ ]]',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
      'shopt -s extglob\nv=aab; echo ${v##+(a)}; p="@(aab|z)"; [[ $v == $p ]] && echo m',
      'b\nm\n',
    ],
    [
      'on the right of == in [[ ]] without extglob',
      '[[ 123 == +([0-9]) ]]; echo $?; [[ 12x != *([0-9]) ]]; echo $?',
      '0\n0\n',
    ],
    [
      'with quotes and blanks inside',
      'shopt -s extglob\n[[ "a b" == @("a b"|c) ]] && echo yes; echo @(x|"y z")',
      'yes\n@(x|y z)\n',
    ],
    [
      'turned on by a function or eval of an earlier line',
      "f() { shopt -s extglob; }\nf\necho @(k)\neval 'shopt -u extglob'",
      '@(k)\n',
    ],
    ['turned off on the line that uses one', 'shopt -s extglob\nshopt -u extglob; echo +(a)', '+(a)\n'],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });

  it('on the line that turns extglob on is a syntax error, as in bash', async () => {
    const text = 'shopt -s extglob; echo @(a)';
    const bash = spawnSync('bash', ['-c', text], { cwd: root, env, encoding: 'utf8' });
    const ours = await runCli(['--no-facts', '-c', text], { cwd: root, env });
    expect(bash.status).toBe(2);
    expect(ours.code).toBe(125);
    expect(ours.stderr).toContain('unexpected "(" at column 25 (a syntax error in bash)');
  });
});

describe('options', () => {
  it.each([
    ['set -n runs nothing after it', 'echo a; set -n; echo b; set +n; echo c', 'a\n'],
    [
      'shopt -o lists and sets set -o options',
      'shopt -so pipefail; shopt -o pipefail; shopt -op errexit; shopt -qo nounset; echo $?',
      'pipefail       \ton\nset +o errexit\n1\n',
    ],
    ['shopt -o with a name it does not know', 'shopt -os nosuch 2>/dev/null; echo $?', '0\n'],
    ['dotglob', 'touch a .b; shopt -s dotglob; echo *', '.b a\n'],
    ['globskipdots is on', 'shopt -p globskipdots', 'shopt -s globskipdots\n'],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});
