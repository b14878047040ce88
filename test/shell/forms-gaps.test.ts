import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectSameAsBash, stdoutBothWays } from '../helpers/against-bash.js';

// Forms on which safe-run once answered differently from bash 5.2 (2026-12-03): each row runs under
// bash -o pipefail and safe-run in fresh directories and must give bash's stdout and exit code.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'forms-gaps-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, LANG: 'C.UTF-8' };

const same = (text: string, expected: string) => expectSameAsBash(text, expected, root, env);

describe('a letter range through the characters between Z and a', () => {
  it.each([
    ['its backslash is an empty word', 'printf "[%s]" {Z..b}; echo', '[Z][[][][]][^][_][`][a][b]\n'],
    [
      'downwards, and by steps',
      'echo {a..Z} {A..z..3}',
      'a ` _ ^ ]  [ Z A D G J M P S V Y  _ b e h k n q t w z\n',
    ],
    [
      'after a prefix, the backslash ends the word',
      'printf "[%s]" x{Z..a}; echo',
      '[xZ][x[][x][x]][x^][x_][x`][xa]\n',
    ],
    [
      'a backquote with text after it is never closed',
      'echo x{Z..a}y; echo same\necho "next $?"',
      'next 1\n',
    ],
    [
      'steps of either sign, and 0',
      'echo {z..a..2} {0..10..-3} {a..e..0}',
      'z x v t r p n l j h f d b 0 3 6 9 a b c d e\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('\\u and \\U where the locale cannot say the character', () => {
  it.each([
    [
      'echo -e in the C locale writes the escape again, upper-case',
      "LC_ALL=C; echo -e '\\u00e9|\\U0001F600|\\u41|\\uffff|\\U00110000'",
      '\\u00E9|\\U0001F600|A|\\uFFFF|\\U00110000\n',
    ],
    [
      "and $'...' on a line read in it",
      "LC_ALL=C\necho $'\\u00e9|\\U1F600|\\u7e'",
      '\\u00E9|\\U0001F600|~\n',
    ],
    [
      'in UTF-8, values past Unicode are still encoded, as bash does',
      "echo -e '\\U00110000\\ud800' | od -An -tx1",
      ' f4 90 80 80 ed a0 80 0a\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('appending to an array one element at a time', () => {
  // That an append costs no pass over the elements is checked on the array itself
  // (test/shell/indexed-items.test.ts), not by timing: here, that it gives what bash gives.
  it('gives what bash gives, past holes and removed elements', async () => {
    const text =
      'for ((i=0; i<5000; i++)); do a+=(x$i); done; a[7000]=y; a+=(z); unset "a[7001]"; a+=(w); unset "a[0]"; a+=(v)\n' +
      'k=(${!a[@]}); echo ${#a[@]} ${a[-1]} ${a[-2]} ${k[@]: -3}';
    const { bash, ours } = await stdoutBothWays(text, root, env);
    expect(ours).toEqual(bash);
  }, 120_000);
});

describe('$RANDOM seeded, and $SRANDOM', () => {
  it.each([
    ['RANDOM=N gives bash’s sequence', 'RANDOM=1; echo $RANDOM $RANDOM $RANDOM', '16807 10791 19566\n'],
    [
      'a seed of 0, past 32 bits, negative, and arithmetic on it',
      'RANDOM=0; echo $RANDOM; RANDOM=4294967297; echo $RANDOM; RANDOM=-7; echo $RANDOM; RANDOM=42; echo $((RANDOM % 6 + 1))',
      '20814\n16807\n18498\n1\n',
    ],
    [
      'a subshell that seeds it has its own sequence, the shell goes on with its own',
      'RANDOM=1; (RANDOM=5; echo $RANDOM); echo $RANDOM; declare -p RANDOM',
      '18498\n16807\ndeclare -i RANDOM="10791"\n',
    ],
    [
      'unset or local, it is an ordinary variable',
      'f() { local RANDOM=1; echo $RANDOM; }; f; unset RANDOM; echo "[$RANDOM]"; RANDOM=3; echo $RANDOM $RANDOM',
      '1\n[]\n3 3\n',
    ],
    [
      'SRANDOM is 32 bits each time, ordinary once unset',
      'echo $((SRANDOM >= 0 && SRANDOM < 2**32)); [[ -v SRANDOM ]] && echo set; unset SRANDOM; SRANDOM=5; echo $SRANDOM',
      '1\nset\n5\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('a job’s number', () => {
  it.each([
    [
      'is 1 again once every job was waited for',
      'sleep 0.1 & wait; sleep 0.1 & jobs',
      '[1]+  Running                 sleep 0.1 &\n',
    ],
    [
      'is one past the highest still known; a job that ended a while ago is forgotten',
      'sleep 0.3 & sleep 0.05 & wait %1; sleep 0.1 & jobs; wait %1; echo $?',
      '[1]+  Running                 sleep 0.1 &\n0\n',
    ],
    ['a job that just ended is still known', 'false & true & wait %1; echo $?', '1\n'],
    [
      'keeps a job that ended while only builtins ran, so %1 never names the next one',
      'true & read -t 0.1 x < /dev/zero; sleep 0.5 & p=$!; kill %1 2>/dev/null; jobs %2 >/dev/null 2>&1 && echo "job 2 known"; kill -0 $p && echo alive',
      'job 2 known\nalive\n',
    ],
    [
      'forgets a job that ended before a foreground program finished',
      'true & sleep 0.1; sleep 1 & jobs',
      '[1]+  Running                 sleep 1 &\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('wait -p NAME', () => {
  it.each([
    [
      'gets the pid waited for, by pid or by job',
      'sleep 0.1 & p=$!; wait -p v $p; echo "$? $([[ $v == $p ]] && echo same)"; true | (exit 3) & p=$!; wait -p v %1; echo "$? $([[ $v == $p ]] && echo same)"',
      '0 same\n3 same\n',
    ],
    [
      'with -n, the one that ended first, in -np v and -pv forms too',
      'sleep 0.3 & (sleep 0.05; exit 4) & q=$!; wait -np v; echo "$? $([[ $v == $q ]] && echo q)"; wait -pv; echo "$? [${v-unset}]"',
      '4 q\n0 [unset]\n',
    ],
    [
      'is unset when nothing was waited for, or the last id is no child',
      'v=old; wait -n -p v; echo "$? [${v-unset}]"; true & wait -p v $! 99999; echo "$? [${v-unset}]"',
      '127 [unset]\n127 [unset]\n',
    ],
    [
      'a missing name, one that is none, one that is readonly',
      'wait -p; echo $?; wait -p 1x; echo $?; declare -r r=1; true & wait -p r $!; echo $?',
      '2\n1\n1\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('BASH_XTRACEFD', () => {
  it.each([
    [
      'set -x writes to that descriptor',
      'exec 5>t.log; BASH_XTRACEFD=5; set -x; echo a; echo b >&2; set +x; cat t.log',
      'a\n+ echo a\n+ echo b\n+ set +x\n',
    ],
    [
      'to stdout',
      'BASH_XTRACEFD=1; set -x; echo to-stdout; set +x',
      '+ echo to-stdout\nto-stdout\n+ set +x\n',
    ],
    [
      'unset, the trace is stderr again and the descriptor is closed',
      'exec 5>t.log; BASH_XTRACEFD=5; set -x; echo a; unset BASH_XTRACEFD; echo c; echo d >&5; echo rc=$?; set +x; cat t.log',
      'a\nc\nrc=1\n+ echo a\n+ unset BASH_XTRACEFD\n',
    ],
    [
      'a descriptor not open, or no number, changes nothing',
      'BASH_XTRACEFD=7; echo $?; BASH_XTRACEFD=x; set -x; echo a 2>/dev/null',
      '0\na\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('NAME[subscript] given to declare, printf -v and read', () => {
  it.each([
    [
      'a negative subscript counts back from the end',
      'a=(1 2); declare a[-1]=7; printf -v a[-2] 8; echo ${a[@]}; read a[-1] <<< 9; echo ${a[@]}',
      '8 7\n8 9\n',
    ],
    [
      'one before the first is a bad subscript, status 1',
      'a=(1 2); declare a[-5]=9; echo $?; printf -v a[-5] 9; echo $?; read a[-5] <<< 9; echo $? ${a[@]}',
      '1\n1\n1 1 2\n',
    ],
    [
      'read takes an element, of an indexed or an associative array',
      'a=(1 2); read a[1+1] b <<< "9 8"; echo $? ${a[@]} $b; declare -A h; read "h[k]" <<< v; echo ${h[k]}',
      '0 1 2 9 8\nv\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});
