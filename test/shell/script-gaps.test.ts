import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectSameAsBash } from '../helpers/against-bash.js';
import { runCli } from '../helpers/cli.js';

// Texts on which safe-run once answered differently from bash -o pipefail, found by probing it with
// what CI steps and agents write (2026-12-03). Each row is run by both in a fresh directory and must
// give bash's exit code and stdout; bash's stdout is written in the row too.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'script-gaps-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, LANG: 'C.UTF-8' };

const same = (text: string, expected: string) => expectSameAsBash(text, expected, root, env);

describe('here-documents inside command substitutions', () => {
  it.each([
    [
      'in an assignment, the rest of the text is not taken for its body',
      'x=$(cat <<EOF\nmulti $HOME\nEOF\n)\necho "[${#x}]"\necho third',
      `[${'multi '.length + root.length}]\nthird\n`,
    ],
    ['in an assignment ended on the same line', 'x=$(cat <<EOF\nhi\nEOF\n); echo "[$x]"', '[hi]\n'],
    [
      'in local, export and an array element',
      'f() { local x=$(cat <<EOF\nin f\nEOF\n); echo "$x"; }; f\nexport X=$(cat <<EOF\nexp\nEOF\n); echo $X\na=([k]=$(cat <<EOF\nel\nEOF\n)); echo ${a[k]}',
      'in f\nexp\nel\n',
    ],
    ['two in one substitution', 'x=$(cat <<A; cat <<B\none\nA\ntwo\nB\n); echo "$x"', 'one\ntwo\n'],
    [
      'in a here-document body, the substitution sees its own assignments and loops',
      'i=9; cat <<EOF\n$(i=5; echo v $i)\n$(for i in 1 2; do echo "item $i"; done)\n$(f() { echo fn; }; f)\n$([[ a == a ]] && echo cond)\n$(cat <<EOT\nnested\nEOT\n)\ntail\nEOF',
      'v 5\nitem 1\nitem 2\nfn\ncond\nnested\ntail\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('the EXIT trap', () => {
  it.each([
    [
      "an exit in a subshell's trap ends the subshell only",
      '( trap "exit 0" EXIT; echo in-sub ); echo "tests:"; ( trap "exit 3" EXIT; exit 6 ); echo "rc=$?"; false',
      'in-sub\ntests:\nrc=3\n',
    ],
    [
      "a subshell's trap sees the status it exits with",
      '( trap "echo t=\\$?" EXIT; exit 6 ); echo "rc=$?"; echo x | ( trap "echo t=\\$?; exit 2" EXIT; cat; exit 6 ); echo "rc=$?"',
      't=6\nrc=6\nx\nt=6\nrc=2\n',
    ],
    [
      'a bare exit in it gives the status it began with, from a function, a subshell, eval',
      'cleanup() { rm -f nothing; exit; }; trap cleanup EXIT; false',
      '',
    ],
    ['a bare exit after a command of its own', 'trap "echo t; exit" EXIT; (exit 4)', 't\n'],
    ['a bare exit in a substitution in it', 'trap "true; x=\\$(exit); echo \\$?" EXIT; false', '1\n'],
    ['a bare exit in eval in it', 'trap "true; eval exit" EXIT; false', ''],
    ['but in an ERR trap, the last command’s', 'trap "true; exit" ERR; false; echo no', ''],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

// A text as a script file: `bash FILE` against `safe-run --script FILE`, in fresh directories.
async function sameAsScript(text: string, expected: { stdout: string; code: number }): Promise<void> {
  const dir = () => fs.mkdtempSync(path.join(root, 'file-'));
  const [a, b] = [dir(), dir()];
  for (const d of [a, b]) fs.writeFileSync(path.join(d, 's.sh'), text);
  const bash = spawnSync('bash', ['--norc', '-o', 'pipefail', 's.sh'], { cwd: a, env, encoding: 'utf8' });
  expect({ stdout: bash.stdout, code: bash.status }).toEqual(expected);
  const ours = await runCli(['--no-facts', '-q', '--script', 's.sh'], { cwd: b, env });
  expect({ stdout: ours.stdout, code: ours.code }).toEqual(expected);
}

describe('a fatal expansion error', () => {
  it.each([
    ['ends bash -c with 127', 'set -u; echo start; echo $nope; echo after', 'start\n'],
    ['but with 1 under set -e', 'set -eu; echo $nope; echo after', ''],
    [
      'and with 1 in a subshell or a substitution',
      '( echo ${x:?need} ); echo "sub $?"; x=$(echo ${x:?}); echo "cs $?"',
      'sub 1\ncs 1\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });

  it('ends a script file with 1, and $- has no c there', async () => {
    await sameAsScript('echo "$-"\nset -u\necho $nope\necho after\n', { stdout: 'hB\n', code: 1 });
    await sameAsScript('f() { echo ${u:?}; }\nf\necho after\n', { stdout: '', code: 1 });
  });

  it('is said with its line and message, and what to do', async () => {
    const result = await runCli(
      ['--no-facts', '--json', '-c', 'set -eu\necho start\necho $nope\necho after'],
      {
        cwd: root,
        env,
      },
    );
    const report = JSON.parse(result.stdout);
    expect(result.code).toBe(1);
    expect(report.verdict.reason).toBe(
      'the shell ended on an error at line 3 (nope: unbound variable), with status 1',
    );
    expect(report.next).toMatch(
      /^the text ended at line 3 on an error that ends bash too \(nope: unbound variable\)/,
    );
  });

  it('and set -e after a test that is no stage says where', async () => {
    const result = await runCli(['--no-facts', '--json', '-c', 'set -e\n[[ -f nofile ]]\necho no'], {
      cwd: root,
      env,
    });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).next).toMatch(
      /^set -e ended the text at line 2, where a test or builtin failed/,
    );
  });
});

describe('builtins and programs', () => {
  it.each([
    [
      'printf -v of a name that is none says so with status 2',
      'printf -v "a b" x; echo "$?"; printf -v "a[1]" %s y; echo "$? ${a[1]}"',
      '2\n0 y\n',
    ],
    [
      'printf -- takes a format that starts with -',
      "printf -- '- %s\\n' a b; printf -- --x; printf -- -v; echo",
      '- a\n- b\n--x-v\n',
    ],
    [
      'a script named by a relative path is run by that path: its $0 is as written',
      'printf \'#!/bin/sh\\necho "$0"\\n\' > u.sh; chmod +x u.sh; mkdir d; cp u.sh d/; ./u.sh; d/u.sh; cd d && ../u.sh',
      './u.sh\nd/u.sh\n../u.sh\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('a script file', () => {
  it("names itself in bash's messages about programs and their redirections, as bash FILE does", async () => {
    const dir = fs.mkdtempSync(path.join(root, 'named-'));
    fs.writeFileSync(path.join(dir, 's.sh'), 'nosuch_cmd_q\ncat < /nonexistent\n');
    const said = [
      's.sh: line 1: nosuch_cmd_q: command not found',
      's.sh: line 2: /nonexistent: No such file or directory',
    ];
    const bash = spawnSync('bash', ['s.sh'], { cwd: dir, env, encoding: 'utf8' });
    expect(bash.stderr.split('\n').slice(0, 2)).toEqual(said);
    const ours = await runCli(['--no-facts', '-q', '--script', 's.sh'], { cwd: dir, env });
    expect(ours.code).toBe(1);
    for (const line of said) expect(ours.stderr.split('\n')).toContain(line);
  });
});

describe('an error bash discards ends the line it is on, and the text goes on', () => {
  it.each([
    ['failglob’s no match', 'shopt -s failglob\necho *.zzz; echo same\necho "after $?"', 'after 1\n'],
    [
      'from a function and a loop: the whole line',
      'shopt -s failglob\nf() { echo in; echo *.zzz; echo in2; }; f; echo same\nfor i in 1; do\necho *.zzz\ndone; echo same2\necho "end $?"',
      'in\nend 1\n',
    ],
    [
      'an arithmetic error in $((...)) or an offset, under set -e too, with no ERR trap',
      'set -e; trap "echo ERR" ERR\nx=$((1/0)); echo same\necho "next $?"\nx=abc; echo ${x:1/0}\necho "next $?"',
      'next 1\nnext 1\n',
    ],
    ['a bad substitution', 'echo ${x!}; echo same\necho "next $?"', 'next 1\n'],
    [
      'in a substitution, only it ends',
      'x=$(echo $((1/0)); echo in-sub); echo "same [$x] $?"',
      'same [] 1\n',
    ],
    ['but an arithmetic error in a subscript ends the text', 'a=(1); echo ${a[1/0]}\necho "next $?"', ''],
    [
      'but failglob’s ends the text under set -e',
      'shopt -s failglob; set -e\necho *.zzz\necho "after $?"',
      '',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('$LINENO', () => {
  it.each([
    [
      'in an ERR trap: the failing command’s line, and on from it',
      'trap "echo err \\$LINENO\necho err2 \\$LINENO" ERR\necho a\nfalse',
      'a\nerr 4\nerr2 5\n',
    ],
    [
      'for a function’s status: the call’s line',
      'f() {\n  false\n}\ntrap "echo err \\$LINENO" ERR\nf\necho "after $LINENO"',
      'err 5\nafter 6\n',
    ],
    [
      'with set -E inside the function: the line there',
      'set -eE\ntrap "echo err \\$LINENO" ERR\nf() {\n  echo in\n  false\n}\nf',
      'in\nerr 5\n',
    ],
    ['in eval: on from the eval’s line', 'echo a\neval "echo ev \\$LINENO"', 'a\nev 2\n'],
    [
      'in an EXIT trap: its own',
      'trap "echo exit-trap \\$LINENO" EXIT\necho a\necho b',
      'a\nb\nexit-trap 1\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('an expansion error in an element of a pipeline', () => {
  it.each([
    [
      'fails that element alone, with bash -c’s status, and the others run',
      'set -u; echo $z | cat; echo "st $? ${PIPESTATUS[*]}"',
      'st 127 127 0\n',
    ],
    [
      'a bad substitution: the next element reads nothing',
      'echo ${x!} | wc -l; echo "st ${PIPESTATUS[*]}"',
      '0\nst 1 0\n',
    ],
    ['in a substitution, with a subshell’s status', 'x=$(echo ${y:?e} | cat); echo "[$x] $?"', '[] 1\n'],
    ['under set -e the pipeline’s failure ends the text', 'set -eu; echo $z | cat; echo after', ''],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe("bash's words for an expansion error", () => {
  it.each([
    [
      'an arithmetic error names the expression without its leading blanks',
      'echo $((  3 / 0 ))',
      'bash: line 1: 3 / 0 : division by 0 (error token is "0 ")',
    ],
    ['as (( )) says it', '(( 1/0 ))', 'bash: line 1: ((: 1/0 : division by 0 (error token is "0 ")'],
    ['an unset $1 is named $1, and ${1} 1', 'set -u; echo $1', 'bash: line 1: $1: unbound variable'],
    ['${1} is named 1', 'set -u; echo ${1}', 'bash: line 1: 1: unbound variable'],
  ])('%s', async (_what, text, said) => {
    const bash = spawnSync('bash', ['--norc', '-c', text], { cwd: root, env, encoding: 'utf8' });
    expect(bash.stderr.split('\n')[0]).toBe(said);
    const ours = await runCli(['--no-facts', '-q', '-c', text], { cwd: root, env });
    expect(ours.stderr.split('\n')[0]).toBe(said);
    expect(ours.code).toBe(bash.status);
  });
});

describe('a syntax error in text the shell reads while it runs', () => {
  it.each([
    [
      'eval runs the whole commands on the lines before it',
      'eval \'echo a\nfor x in 1; do\necho in\nif\ndone\'; echo "rc=$?"',
      'a\nrc=2\n',
    ],
    ['but nothing of the line it is on', 'eval \'echo a; if\'; echo "rc=$?"', 'rc=2\n'],
    [
      'source too',
      'printf \'echo before\\nif then\\necho never\\n\' > bad.sh; source ./bad.sh; echo "rc=$?"',
      'before\nrc=2\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('more errors bash discards with their line (from a review)', () => {
  it.each([
    [
      'in eval’s text: its line only',
      'eval "echo \\${x!}\necho evnext \\$?"; echo "same $?"',
      'evnext 1\nsame 0\n',
    ],
    ['in an EXIT trap’s action: its line only', 'trap "echo \\${x!}\necho t2" EXIT; echo main', 'main\nt2\n'],
    ['a readonly variable assigned', 'readonly r=1; r=2; echo same\necho "next $?"', 'next 1\n'],
    ['... which ends the text under set -e', 'set -e; readonly r=1; r=2; echo same\necho "next $?"', ''],
    ['an invalid indirect name', 'x="a b"; echo ${!x}; echo same\necho "next $?"', 'next 1\n'],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('the EXIT trap’s status, further (from a review)', () => {
  it.each([
    ['a subshell in it exits with $?', 'trap "false; ( exit ); echo sub \\$?" EXIT; exit 6', 'sub 1\n'],
    ['a pipeline element in it too', 'trap "true | (false; exit); echo p \\$?" EXIT; exit 6', 'p 1\n'],
    [
      'after an ERR trap ran in it, a bare exit gives $?',
      'trap "echo err" ERR; trap "echo t; false; exit" EXIT; exit 2',
      't\nerr\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('exec of a program named by a relative path', () => {
  it('runs the file found, as bash’s exec builtin does: its $0 is the full path', async () => {
    await same(
      'printf "#!/bin/sh\\necho \\"\\$0\\"\\n" > x.sh; chmod +x x.sh; ./x.sh; (exec ./x.sh) | sed "s#^$PWD/#FULL/#"',
      './x.sh\nFULL/x.sh\n',
    );
  });
});

describe('found by a second probe of agents’ and CI texts', () => {
  it.each([
    [
      'mapfile -d "" drops the NUL with or without -t',
      'mkdir src; touch src/a.ts src/b.ts; mapfile -d \'\' files < <(find src -type f -print0 | sort -z); for f in "${files[@]}"; do printf \'%s \' "${f##*/}"; done; echo "${#files[0]}"',
      'a.ts b.ts 8\n',
    ],
    [
      'a negative substring length ends its line only, under set -e too',
      'set -e; tag=v1; echo "${tag:0:-5}"; echo same\necho "continued $?"',
      'continued 1\n',
    ],
    [
      '[[ -v N ]] tests a positional parameter',
      'set -- a; [[ -v 1 ]] && echo one; [[ -v 2 ]] || echo no2; test -v 0 && echo zero',
      'one\nno2\nzero\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('PATH unset or empty', () => {
  it.each([
    [
      'finds no program by name, as bash says it',
      'unset PATH; ls /dev/null; echo "rc=$?"; PATH=/usr/bin:/bin; ls /dev/null',
      'rc=127\n/dev/null\n',
    ],
    [
      'an empty PATH looks in the directory only',
      'mkdir d; printf "#!/bin/sh\\necho mine\\n" > d/tool; chmod +x d/tool; cd d; PATH=; tool; ls; echo "rc=$?"',
      'mine\nrc=127\n',
    ],
    [
      'a function in a pipeline meets an unset parameter as bash’s child: 127',
      'f() { echo ${y:?e}; }; f | cat; echo "st ${PIPESTATUS[*]}"',
      'st 127 0\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });

  it('has bash’s default PATH, not exported, when started without one', async () => {
    const text = 'declare -p PATH; env | grep -c ^PATH=; ls /dev/null';
    const bash = spawnSync('/bin/bash', ['--norc', '-c', text], {
      cwd: root,
      env: { HOME: root },
      encoding: 'utf8',
    });
    const ours = await runCli(['--no-facts', '-q', '-c', text], {
      cwd: root,
      env: { PATH: undefined, HOME: root },
    });
    expect(bash.stdout).toBe(
      'declare -- PATH="/usr/local/bin:/usr/local/sbin:/usr/bin:/usr/sbin:/bin:/sbin:."\n0\n/dev/null\n',
    );
    expect(ours.stdout).toBe(bash.stdout);
  });
});
