import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { againstBash, expectSameAsBash } from '../helpers/against-bash.js';

// Texts on which safe-run once answered differently from bash -o pipefail (2026-12-03): each row is
// run by both in a fresh directory and must give bash's exit code and stdout; bash's stdout is
// written in the row too.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'misc-gaps-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, LANG: 'C.UTF-8' };

const same = (text: string, expected: string) => expectSameAsBash(text, expected, root, env);

describe('the advice on a failed stage whose stderr a redirection sent elsewhere', () => {
  it.each([
    [
      'ls nosuch 2>&1 >/dev/null | cat',
      'its stderr went into the pipe to stage 2 "cat" and its stdout to file /dev/null',
    ],
    ['ls nosuch 2>&1 | cat', 'its stderr went into the pipe to stage 2 "cat" (2>&1)'],
    ['ls nosuch >/dev/null 2>&1 | cat', 'its stderr was thrown away (to /dev/null)'],
    ['ls nosuch 2>&1 >out', 'its stderr went to the stdout safe-run captured and its stdout to file out'],
    ['ls nosuch 2>&1', 'its stderr went into its stdout (2>&1)'],
  ])('%s', async (text, advice) => {
    const cwd = fs.mkdtempSync(path.join(root, 'case-'));
    const { bash, ours, report } = await againstBash(text, { cwd, env });
    expect(ours).toEqual(bash);
    expect(report.next).toContain(advice);
  });
});

describe("$'...' is decoded as bash reads its line, under the locale in force before the line", () => {
  it.each([
    ['a locale set on the same line', "LC_ALL=C; echo $'\\u00e9'", 'é\n'],
    ['a locale set on the line before', "LC_ALL=C\necho $'\\u00e9'", '\\u00E9\n'],
    ['in a command substitution', "LC_ALL=C; echo $(echo $'\\u00e9') \"$(echo $'\\u00e9')\"", 'é é\n'],
    ['a function defined before the locale changed', "f() { echo $'\\u00e9'; }\nLC_ALL=C\nf", 'é\n'],
    ['in a backquoted substitution, read when it runs', "LC_ALL=C; echo `echo $'\\u00e9'`", '\\u00E9\n'],
    ['in an eval, read when it runs', 'LC_ALL=C; eval "echo \\$\'\\\\u00e9\'"', '\\u00E9\n'],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('BASH_XTRACEFD given for one command or as a local goes back after it, closing the trace descriptor', () => {
  it.each([
    ['a prefix assignment', 'exec 3>&1; BASH_XTRACEFD=3 true; echo x >&3; echo "rc=$?"', 'rc=1\n'],
    ['a local', 'exec 3>&1; f() { local BASH_XTRACEFD=3; }; f; echo x >&3; echo "rc=$?"', 'rc=1\n'],
    [
      'its trace goes to stderr after it',
      'exec 3>&1; f() { local BASH_XTRACEFD=3; set -x; echo in; }; f; echo out',
      '+ echo in\nin\nout\n',
    ],
    [
      'put back to the same descriptor, which stays open',
      'exec 3>&1; BASH_XTRACEFD=3; BASH_XTRACEFD=3 true; echo x >&3',
      'x\n',
    ],
    [
      'an outer local of another descriptor is the trace again',
      'exec 3>&1 4>&1; BASH_XTRACEFD=3; f() { local BASH_XTRACEFD=4; }; f; echo x >&3; echo y >&4',
      'x\ny\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('wait', () => {
  it.each([
    [
      "-p an array's element",
      'a=(x y z); sleep 0.1 & wait -p "a[1]" -n; echo "$? $((a[1] == $!))"; declare -A m; sleep 0.1 & wait -n -p "m[k]"; echo "$? $((m[k] == $!))"',
      '0 1\n0 1\n',
    ],
    ['-p an element is never unset', 'a=(x y z); wait -p "a[1]" -n; echo "$? ${a[*]}"', '127 x y z\n'],
    [
      '-n takes a job that ended unseen',
      'false & wait -n; echo $?; (exit 3) & wait -n; echo $?; wait -n; echo $?',
      '1\n3\n127\n',
    ],
    [
      'a pid after a wait for all jobs is no longer a child',
      '(exit 3) & p=$!; (exit 4) & q=$!; sleep 0.2; wait; wait $q $p; echo $?',
      '127\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe("kill's options, in any order", () => {
  it.each([
    [
      '-sSIG and -nNUM',
      'sleep 1 & kill -sTERM $!; wait $!; echo $?; sleep 1 & kill -n9 $!; wait $!; echo $?',
      '143\n137\n',
    ],
    [
      '-l after a signal, which -l does not check',
      'kill -s HUP -l 9; kill -l -x 15; echo $?',
      'KILL\nTERM\n0\n',
    ],
    ['-l with -- among its names', 'kill -l 9 -- 3; echo $?', 'KILL\nQUIT\n1\n'],
    [
      'a second -s, -? and a lone -sSIG are usage errors',
      'kill -s HUP -s INT; echo $?; kill -?; echo $?; kill -sHUP; echo $?',
      '2\n2\n2\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe("mapfile's options as bash's getopt takes them", () => {
  it.each([
    [
      '`--` after the options',
      'mapfile -t -- a <<< x; echo "$? ${a[0]}"; mapfile -t a -- <<< y; echo "$? ${a[0]}"',
      '0 x\n0 y\n',
    ],
    [
      'grouped, with a value in the group',
      'mapfile -tn1 a <<< $\'x\\ny\'; echo "${a[*]}"; mapfile -n1t a <<< x; echo $?',
      'x\n1\n',
    ],
    ['none after the name', 'mapfile a -t <<< x; echo "${#a[0]}"', '2\n'],
    ['a name that is none', 'mapfile 1a <<< x; echo $?; mapfile "a[1]" <<< x; echo $?', '1\n1\n'],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe("read's errors about the variables it assigns", () => {
  it.each([
    [
      'a bad subscript, said as an assignment error',
      'read "a[-3]" <<< x 2>&1; echo $?',
      'bash: line 1: a[-3]: bad array subscript\n1\n',
    ],
    ['a read-only name', 'readonly r; read r <<< x 2>&1; echo $?', 'bash: line 1: r: readonly variable\n1\n'],
    [
      '-a of an associative array, once the record is read',
      'declare -A m; { read -a m; cat; } <<< $\'x\\ny\' 2>&1; read -a m <<< x 2>&1; echo "$? ${#m[@]}"',
      'bash: line 1: read: m: not an indexed array\ny\nbash: line 1: read: m: not an indexed array\n1 0\n',
    ],
    [
      '-a of an element',
      'read -a "a[1]" <<< x 2>&1; echo $?',
      "bash: line 1: read: `a[1]': not a valid identifier\n1\n",
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('arithmetic', () => {
  it.each([
    [
      '-- and ++ before a number are two signs',
      'echo $(( --1 )) $(( ++1 )) $(( 1++2 )) $(( --(1) ))',
      '1 1 3 1\n',
    ],
    [
      '-- and ++ before and after a name step it',
      'x=5; echo $(( -- x )) $(( x -- )) $x $(( ---x )) $x',
      '4 4 3 -2 2\n',
    ],
    [
      '?: in a slice offset',
      'x=hello; echo ${x: 1 ? 1 : 0} ${x:1?2:0:2} ${x:0?1:2?3:0:1} ${x:1:1?2:0}',
      'ello ll l el\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('LINENO in a $( ) bash printed back', () => {
  it.each([
    ['in a function defined in it', 'x=$(\nf() {\n echo $LINENO\n}\nf\n); echo "$x"', '8\n'],
    [
      'in a function whose commands a newline separated (a blank line between them)',
      'x=$(f() {\n echo $LINENO\n echo $LINENO\n}; f); echo $x; y=$(f() { echo $LINENO; echo $LINENO; }; f); echo $y',
      '6 8\n6 7\n',
    ],
    ['in a here-document', 'x=$(\n\ncat <<E\n$LINENO\nE\n); echo "$x"', '6\n'],
    [
      'after here-documents',
      "x=$(cat <<A <<'B'\na\nA\nb\nB\necho $LINENO); echo $x; echo $(cat <<E; echo $LINENO\na\nE\necho $LINENO\n)",
      'b 12\na 13 14\n',
    ],
    ['after a here-document in a pipeline', 'x=$(cat <<E | cat\nhi\nE\necho $LINENO); echo $x', 'hi 8\n'],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe("arithmetic's error messages", () => {
  it.each([
    [
      'a bad number cuts the expression there',
      '(echo $(( 1 + 08 + 2 ))) 2>&1\n(echo $(( 1e3 ))) 2>&1',
      'bash: line 1: 1 + 08: value too great for base (error token is "08")\nbash: line 2: 1e3: value too great for base (error token is "1e3")\n',
    ],
    [
      'a negative exponent, at the token after it',
      '(echo $((2**-1 + 3))) 2>&1\n(echo $((2 ** -1 ))) 2>&1',
      'bash: line 1: 2**-1 + 3: exponent less than 0 (error token is "+ 3")\nbash: line 2: 2 ** -1 : exponent less than 0 (error token is "1 ")\n',
    ],
    [
      'an operand expected after an operator',
      '(echo $(( 1 + @ ))) 2>&1\n(echo $(( (1) @ 2 ))) 2>&1\n(echo $(( 1 @ 2 ))) 2>&1',
      'bash: line 1: 1 + @ : syntax error: operand expected (error token is "@ ")\nbash: line 2: (1) @ 2 : syntax error: operand expected (error token is "@ 2 ")\nbash: line 3: 1 @ 2 : syntax error: invalid arithmetic operator (error token is "@ 2 ")\n',
    ],
    [
      'BASE# with no digit, and a second #',
      '(echo $((1 + 10#-5))) 2>&1\n(echo $((10#1#1))) 2>&1\n(echo $((0x#))) 2>&1',
      'bash: line 1: 1 + 10#: invalid integer constant (error token is "10#")\nbash: line 2: 10#1#1: invalid number (error token is "10#1#1")\nbash: line 3: 0x#: invalid number (error token is "0x#")\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe("read's option values", () => {
  it.each([
    ['a bad count is status 1', 'read -n x a <<< y; echo $?; read -N 2147483648 a <<< y; echo $?', '1\n1\n'],
    [
      '-u of a closed descriptor is an invalid one',
      'read -u 5 a 2>&1; echo $?; read a <&- 2>&1; echo $?',
      'bash: line 1: read: 5: invalid file descriptor: Bad file descriptor\n1\nbash: line 1: read: read error: 0: Bad file descriptor\n1\n',
    ],
    [
      'a missing value is a usage error',
      'read -d 2>&1; echo $?',
      'bash: line 1: read: -d: option requires an argument\nread: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]\n2\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});
