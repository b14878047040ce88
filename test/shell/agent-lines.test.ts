import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectSameAsBash } from '../helpers/against-bash.js';
import { runCli } from '../helpers/cli.js';

// Command lines as coding agents type them, on which safe-run once answered differently from
// bash -o pipefail (found by running a corpus of agents' lines both ways, 2026-12-04). Each row runs
// under both in a fresh directory and must give bash's exit code and stdout (written in the row).

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lines-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, LANG: 'C.UTF-8' };

const same = (text: string, expected: string) => expectSameAsBash(text, expected, root, env);

describe('programs of the text', () => {
  it.each([
    [
      'a script without a #! line runs under bash, as bash runs it itself',
      'printf \'a=(x y); echo "${a[1]} $0 $1"; [[ a == a ]] && echo ok\\n\' > t.sh; chmod +x t.sh; ./t.sh A; x=$(./t.sh B | cat); echo "[$x]"',
      'y ./t.sh A\nok\n[y ./t.sh B\nok]\n',
    ],
    [
      'and one found on PATH, with its path as $0; env still runs it with /bin/sh',
      'mkdir b; printf \'echo "$0 ${BASH_VERSION:+bash}"\\n\' > b/nsb; chmod +x b/nsb; PATH=$PWD/b:$PATH; nsb | sed "s|$PWD|D|"; env nsb | sed "s|$PWD|D|"',
      'D/b/nsb bash\nD/b/nsb \n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('disown', () => {
  it.each([
    [
      'a server started and disowned: the text goes on, jobs and wait no longer know it',
      'sleep 1 & disown; echo started; jobs; wait $!; echo "pid rc=$?"; wait; echo "rc=$?"; wait $! 2>/dev/null; echo "then $?"',
      'started\npid rc=0\nrc=0\nthen 127\n',
    ],
    [
      'by job, by pid and -a; a job it does not know, or a bad option, is an error',
      'disown 2>&1; echo "rc=$?"; sleep 1 & p=$!; sleep 1 & disown %1; jobs | cut -c1-4; disown $p 2>&1 | sed "s/$p/PID/"; disown -a; jobs; echo "n=$?"; disown -x 2>&1; echo "rc=$?"',
      'bash: line 1: disown: current: no such job\nrc=1\n[2]+\nbash: line 1: disown: PID: no such job\nn=0\n' +
        'bash: line 1: disown: -x: invalid option\ndisown: usage: disown [-h] [-ar] [jobspec ... | pid ...]\nrc=2\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('getopts', () => {
  it.each([
    [
      'a function called again without local OPTIND: past the end, OPTIND becomes one past the arguments',
      'parse() { local v=0; while getopts "vo:" opt; do case $opt in v) v=1;; o) :;; esac; done; shift $((OPTIND - 1)); echo "v=$v rest=$*"; }; parse -v -o f a b; parse -x; parse',
      'v=1 rest=a b\nv=0 rest=\nv=0 rest=\n',
    ],
    [
      'OPTIND read as atoi: 0 and negative numbers start again, leading blanks are skipped',
      'set -- -a -b; OPTIND=0; getopts ab o; echo "$o $OPTIND"; OPTIND=-3; getopts ab o; echo "$o $OPTIND"; OPTIND=" 2"; getopts ab o; echo "$o $OPTIND"; OPTIND=9; getopts ab o; echo "$? $o $OPTIND"',
      'a 2\na 2\nb 3\n1 ? 3\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('the facts ledger with HOME as the working directory (as sandboxes run agents)', () => {
  it('a program not found leaves no .local among the files the text lists next', async () => {
    const text = 'tree 2>/dev/null || find . | sort; git init -q; git status --porcelain; ls -A';
    const dir = () => fs.mkdtempSync(path.join(root, 'home-'));
    const bashHome = dir();
    const bash = spawnSync('bash', ['-o', 'pipefail', '-c', text], {
      cwd: bashHome,
      env: { ...env, HOME: bashHome },
      encoding: 'utf8',
    });
    expect(bash.stdout).toBe('.\n.git\n');
    const ourHome = dir();
    const ours = await runCli(['-q', '-c', text], { cwd: ourHome, env: { ...env, HOME: ourHome } });
    expect({ code: ours.code, stdout: ours.stdout }).toEqual({ code: bash.status, stdout: bash.stdout });
  });
});
