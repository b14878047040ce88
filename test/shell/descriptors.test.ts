import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectSameAsBash } from '../helpers/against-bash.js';
import { runCli } from '../helpers/cli.js';

// Descriptors above 2 reach programs as bash's children get them: a descriptor the shell opened
// (`exec 3>log`, `exec 3>&1`) is inherited, and a program's own `3>file`, `>&3`, `3<>f`, `3>&-` and
// `>&3-` apply to it. They once did not: `exec 3>&1; cat f >&3` failed with "3: Bad file descriptor",
// `exec 3>log; sh -c 'echo >&3'` wrote nothing, and a program's own `3>f` was refused.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'descriptors-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, LANG: 'C.UTF-8' };

const same = (text: string, expected: string) => expectSameAsBash(text, expected, root, env);

describe('descriptors the shell opened reach its programs', () => {
  it.each([
    ['a copy of stdout', 'exec 3>&1; printf hi | cat >&3; echo " $?"', 'hi 0\n'],
    ['a copy of stderr', 'exec 3>&2; ls /nonexistent 2>&3; echo $?', '2\n'],
    [
      'a file, written by a program that was not told',
      'exec 3>log; sh -c "echo hi >&3"; echo "$?"; cat log',
      '0\nhi\n',
    ],
    ['a file read through descriptor 4', 'printf abc >f; exec 4<f; sh -c "cat <&4"; echo', 'abc\n'],
    ['a closed one is closed', 'exec 3>log; exec 3>&-; sh -c "echo x >&3" 2>/dev/null; echo $?', '2\n'],
    ["the run's stdout from inside a pipeline", 'exec 4>&1; { ls /nonexistent 2>&1 1>&4 | wc -l; }', '1\n'],
    ['through /dev/fd', 'exec 3<f 2>/dev/null; printf q >f; exec 3<f; cat /dev/fd/3; echo', 'q\n'],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe("a copy of the run's stdin", () => {
  it('is read by a program inside a loop whose stdin is a file, as under bash', async () => {
    const text =
      'printf "a\\nb\\n" >lines; exec 3<&0; while read l; do head -c 2 <&3; echo "[$l]"; done <lines';
    const bash = spawnSync('bash', ['--norc', '-o', 'pipefail', '-c', text], {
      cwd: fs.mkdtempSync(path.join(root, 'case-')),
      env,
      input: 'INPUT',
      encoding: 'utf8',
    });
    expect(bash.stdout).toBe('IN[a]\nPU[b]\n');
    const ours = await runCli(['--no-facts', '-q', '-c', text], {
      cwd: fs.mkdtempSync(path.join(root, 'case-')),
      env,
      input: 'INPUT',
    });
    expect({ code: ours.code, stdout: ours.stdout }).toEqual({ code: bash.status, stdout: bash.stdout });
  });
});

describe("a program's own redirections of descriptors above 2", () => {
  it.each([
    ['3>file', 'sh -c "echo a >&3" 3>out; cat out', 'a\n'],
    ['3>&1', 'sh -c "echo a >&3" 3>&1 | tr a b', 'b\n'],
    ['3>file then 1>&3', 'sh -c "echo q" 3>out 1>&3; cat out', 'q\n'],
    ['4<file', 'printf abc >f; sh -c "cat <&4" 4<f; echo', 'abc\n'],
    [
      '3<> opens for reading and writing',
      'printf hello >f; sh -c "printf J >&3" 3<>f; cat f; echo',
      'Jello\n',
    ],
    ['1<> on stdout', 'printf hello >f; echo AB 1<>f; cat f', 'AB\nlo'],
    ['>&3- moves the descriptor', 'exec 3>out; sh -c "echo m" 1>&3-; sh -c "echo n >&3"; cat out', 'm\nn\n'],
    [
      '3>&- closes it for the program only',
      'exec 3>out; sh -c "echo x >&3" 3>&- 2>/dev/null; echo $?',
      '2\n',
    ],
    ['a descriptor never opened is a bad one', 'cat <&5; echo $?', '1\n'],
    ['heredoc on descriptor 3', 'sh -c "cat <&3" 3<<EOF\nfrom three\nEOF', 'from three\n'],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });

  it("says bash's message for a descriptor that is not open", async () => {
    const result = await runCli(['--no-facts', '-q', '-c', 'cat <&5'], { cwd: root, env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('bash: line 1: 5: Bad file descriptor');
  });
});

describe('{NAME}> puts a new descriptor of the shell in NAME', () => {
  it.each([
    [
      'exec, then builtins and programs use it',
      'exec {a}>out; echo "a=$a"; echo hi >&$a; cat out >&2; cat out',
      'a=10\nhi\n',
    ],
    [
      'a command keeps it after itself',
      'echo x {b}>out; echo "b=$b"; echo more >&$b; cat out',
      'x\nb=10\nmore\n',
    ],
    ['a closed one is taken again', 'exec {a}>o1; exec {a}>&-; exec {c}>o2; echo "c=$c"', 'c=10\n'],
    ['flock on it', 'exec {lock}>lockfile; flock -n $lock && echo locked', 'locked\n'],
    [
      'a group keeps it too',
      '{ echo grp; } {d}>o4; echo "d=$d"; echo again >&$d; cat o4',
      'grp\nd=10\nagain\n',
    ],
    ['from a process substitution', 'exec {in}< <(echo from-ps); cat <&$in', 'from-ps\n'],
    ['a copy of stdout', 'exec {a}>&1; printf "a=%s " $a; printf viaA >&$a; echo', 'a=10 viaA\n'],
    ['a readonly name', 'readonly r; echo x {r}>o3 2>/dev/null; echo "rc=$?"', 'rc=1\n'],
    ['closing an unset name', 'unset q; echo y {q}>&- 2>/dev/null; echo "rc=$?"', 'rc=1\n'],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('what cannot be given yet is refused, never silently different', () => {
  it('a copy of the outer stdout named inside a command substitution', async () => {
    const text = 'exec 3>&1; x=$(sh -c "echo out; echo err >&2" 2>&1 1>&3); echo "got:$x"';
    const result = await runCli(['--no-facts', '-q', '-c', text], { cwd: root, env });
    expect(result.code).toBe(125);
    expect(result.stderr).toContain("descriptor 3 leads to the run's descriptor 1");
    expect(result.stderr).toContain('bash -o pipefail -c');
  });
});
