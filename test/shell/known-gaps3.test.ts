import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectSameAsBash, stdoutBothWays } from '../helpers/against-bash.js';

// Known differences from bash -o pipefail -c (2026-12-04), each row run by both in a fresh directory:
// safe-run must give bash's exit code and stdout, and bash's stdout is written in the row.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'known-gaps3-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, LANG: 'C.UTF-8' };

const same = (text: string, expected: string) => expectSameAsBash(text, expected, root, env);

describe('read and word splitting with a character of IFS of several bytes (UTF-8)', () => {
  it.each([
    ['read splits at the whole character', 'IFS=é; read a b <<< "xéy"; echo "[$a][$b]"', '[x][y]\n'],
    [
      'the last name: one field and its delimiter, or the rest',
      'IFS=é; read a b <<< "xéyé"; echo "[$a][$b]"; read a b c <<< "xééy"; echo "[$a][$b][$c]"; read a b <<< "xéyéé"; echo "[$a][$b]"',
      '[x][y]\n[x][][y]\n[x][yéé]\n',
    ],
    [
      'read -a, and white space before the character',
      'IFS=é; read -a a <<< "xéyéézé"; echo ${#a[@]} "${a[@]}"; IFS="é "; read -a a <<< "x é y"; echo ${#a[@]} "${a[@]}"',
      '4 x y  z\n3 x  y\n',
    ],
    [
      'a lone byte of IFS separates, a character of the same bytes does not',
      `IFS=é; read a b <<< $'x\\xa9y'; echo "[$a][$b]"; read a b <<< "xãy"; echo "[$a][$b]"; LANG=C; read a b <<< "xãy"; echo "[$a][\${#b}]"`,
      '[x][y]\n[xãy][]\n[x][2]\n',
    ],
    [
      'read -n counts characters',
      'read -n 2 a <<< "ééx"; echo "[$a]"; read -N 1 a <<< "€x"; echo "[$a]"',
      '[éé]\n[€]\n',
    ],
    [
      'isspace white space of IFS, and an escaped trailing space',
      `IFS=$'\\r:'; read a b <<< $'\\r\\rx\\r:\\ry\\r'; echo "[$a][$b]"; unset IFS; read a b <<< 'x y z\\ '; echo "[$b]"`,
      '[x][y]\n[y z]\n',
    ],
    [
      'expansions: a lone byte of IFS',
      `IFS=é; v=$'a\\xc3b'; printf "<%s>" $v; v=$'a\\xa9b\\xc3'; printf "<%s>" $v; echo`,
      '<a><b><a><b>\n',
    ],
    [
      'expansions: white space before a character of three bytes',
      `IFS='€ '; v='x € y'; printf "<%s>" $v; echo`,
      '<x><><><y>\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('${!ref@X} transforms the parameter ref names, as ${name@X}', () => {
  it.each([
    [
      '@K and @k of an array',
      `a=(1 2); r='a[@]'; echo \${!r@K}; echo "\${!r@k}"; declare -A m=([x]=1); r='m[*]'; echo "\${!r@K}"`,
      '0 "1" 1 "2"\n0 1 1 2\nx "1" \n',
    ],
    [
      '@A and @a (its declaration and attributes), @Q of each element',
      `a=(1 2); r='a[@]'; echo \${!r@A}; echo \${!r@a} \${!r@Q}; declare -ir x=5; r=x; echo \${!r@A} \${!r@a}; set -- y; r=1; echo \${!r@A}`,
      "declare -a a=([0]=\"1\" [1]=\"2\")\na a '1' '2'\ndeclare -ir x='5' ir\n\n",
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('arithmetic error messages, as bash words them (stderr into stdout)', () => {
  it.each([
    [
      'recursion: the expression at bash’s limit, and the name from it',
      '{ i=j; j=k; k=i; echo $(( i + 1 )); } 2>&1\n{ x="1+(x)"; (( x )); echo $?; } 2>&1\n{ a=b; b="a*2"; (( b )); } 2>&1',
      'bash: line 1: i: expression recursion level exceeded (error token is "i")\nbash: line 2: ((: 1+(x): expression recursion level exceeded (error token is "x)")\n1\nbash: line 3: ((: a*2: expression recursion level exceeded (error token is "a*2")\n',
    ],
    [
      '++ or -- right after a pre-increment',
      '{ x=0; echo $(( ++x++ )); } 2>&1\n{ (( --x-- + 1 )); echo $? $x; } 2>&1',
      'bash: line 1: ++x++ : ++: assignment requires lvalue (error token is "++ ")\nbash: line 2: ((: --x-- + 1 : --: assignment requires lvalue (error token is "-- + 1 ")\n1 0\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('kill -SIG $$ in a subshell signals the text’s shell, not the subshell', () => {
  it.each([
    [
      'its trap runs once the subshell ended, not the subshell’s',
      "trap 'echo main' INT; ( trap 'echo sub' INT; kill -INT $$; echo after ); echo rc=$?\ntrap '' INT; ( kill -INT $$; echo a ); echo b",
      'after\nmain\nrc=0\na\nb\n',
    ],
    [
      'untrapped SIGINT while the shell waits for the subshell: it goes on (the subshell did not die of it)',
      "( trap 'echo sub' INT; sleep 0.2; kill -INT $$; echo after ); echo rc=$?\n{ sleep 0.2; kill -INT $$; echo a; } | cat; echo $?",
      'after\nrc=0\na\n0\n',
    ],
    ['SIGQUIT is ignored', 'kill -QUIT $$; echo after; x=$(kill -QUIT $$; echo in); echo $x', 'after\nin\n'],
    [
      'untrapped SIGINT from a job while the shell waits for a program: it goes on',
      '( sleep 0.1; kill -INT $$ ) & sleep 0.6; echo end $?',
      'end 0\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
  // (bash dies of the signal: setsid -w gives no exit code for it, safe-run gives 128+n.)
  it.each([
    ["( trap 'echo sub' TERM; sleep 0.2; kill -TERM $$; echo after ); echo rc=$?", 'after\n', 143],
    ['x=$(sleep 0.2; kill -INT $$; echo in); echo "[$x]"', '', 130],
  ])('the shell dies of an untrapped signal: %s', async (text, stdout, code) => {
    const { bash, ours } = await stdoutBothWays(text, root, env);
    expect(bash.stdout).toBe(stdout);
    expect([null, code]).toContain(bash.code);
    expect(ours).toEqual({ code, stdout });
  });
});
