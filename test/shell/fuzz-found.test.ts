import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectSameAsBash } from '../helpers/against-bash.js';
import { runCli } from '../helpers/cli.js';

// Texts on which safe-run answered differently from bash -o pipefail, found by random texts from a
// small grammar (2026-12-03). Each row is run by both in a fresh directory and must give bash's exit
// code and stdout; bash's stdout is written in the row too.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fuzz-found-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/home/probe', LANG: 'C.UTF-8' };

describe('found by random texts', () => {
  it.each([
    [
      'break and continue in a pipeline element, a substitution or a job end that element only; ( ) and a compound element start outside any loop',
      'exec 2>&1; for i in 1 2; do true | break; x=$(echo a; break; echo in); echo "$i [$x]"; done; for i in 1 2; do (break); { continue; echo in; } | cat; echo "$i"; done; for i in 1; do { while :; do break 2; done; echo after; } | cat; break & wait; cat <(continue; echo ps); echo end; done',
      "1 [a]\n2 [a]\nbash: line 1: break: only meaningful in a `for', `while', or `until' loop\nbash: line 1: continue: only meaningful in a `for', `while', or `until' loop\nin\n1\nbash: line 1: break: only meaningful in a `for', `while', or `until' loop\nbash: line 1: continue: only meaningful in a `for', `while', or `until' loop\nin\n2\nafter\nend\n",
    ],
    [
      'set -u: ${#a[@]} of an unset array is an error bash only discards: the rest of the line goes, a subshell ends, the next line runs',
      'set -u; echo "${#nope[3]}"; echo same\necho "after $?"\nf(){ echo "${#nope[@]}"; echo inf; }; f; echo same\n( echo "${#n[@]}"; echo in ); x=$(echo "${#n[*]}"; echo in); echo "sub $? [$x]"\nexec 2>&1; echo "${#nope[@]}"\necho "end $?"',
      'after 1\nsub 1 []\nbash: line 5: nope: unbound variable\nend 1\n',
    ],
    [
      'a compound assignment reads its variable before the right side runs',
      'a=0; let "a+=2 ? a-- ? 5 : 7 : 1"; b=3; (( b *= b++ )); c=1; (( c += (c=5) )); d=(1 2); (( d[1] += d[1]++ )); echo $a $b $c ${d[*]}',
      '7 9 6 1 4\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await expectSameAsBash(text, expected, root, env);
  });

  // bash forks each element, and the writer, forked first, has written its few bytes before the
  // reader's process exits (0 in 93 runs of 100 at load 6; bash's own race, so not compared row by
  // row). Here a reader that needs no input ended before the in-process writer wrote: 141 every time.
  it('a builtin, function or group writing a little into a reader that reads nothing is not killed by SIGPIPE', async () => {
    const text =
      'echo hi | true; a=${PIPESTATUS[*]}; f(){ echo hi; }; f | :; b=${PIPESTATUS[*]}; { echo m; } | true; c=${PIPESTATUS[*]}; case x in x) echo m;; esac | (exit 0); echo "$a|$b|$c|${PIPESTATUS[*]}"; yes | true; echo "${PIPESTATUS[*]}"';
    const result = await runCli(['--no-facts', '-q', '-c', text], { cwd: root, env });
    expect(result.stdout).toBe('0 0|0 0|0 0|0 0\n141 0\n');
  });
});
