import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { expectSameAsBash } from '../helpers/against-bash.js';

// Known differences from bash -o pipefail -c (2026-12-04), each row run by both in a fresh directory:
// safe-run must give bash's exit code and stdout, and bash's stdout is written in the row.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'known-gaps2-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, LANG: 'C.UTF-8' };

const same = (text: string, expected: string) => expectSameAsBash(text, expected, root, env);

describe('a negative subscript on a scalar or an unset name (counted back from the end of arrays only)', () => {
  it.each([
    [
      'names nothing: said, the expansion is empty',
      'x=abc; echo "[${x[-1]}]" $?; echo ${x[0]} ${x[1]}-',
      '[] 0\nabc -\n',
    ],
    [
      'with an operator',
      'x=abc; echo ${x[-1]:-d} ${x[-1]-e} "${x[-1]:+p}" "${x[-1]#a}"; i=-1; echo "[${x[i]}]"',
      'd e  \n[]\n',
    ],
    ['unset or associative', 'unset x; echo "[${x[-1]}]"; declare -A m; echo "[${m[-1]}]"', '[]\n[]\n'],
    [
      'its length: a bad subscript that discards the line',
      'x=abc; echo ${#x[-1]}; echo same\necho next ${#u[-1]}',
      'next 0\n',
    ],
    ['before an array’s first element', 'a=(1); echo ${#a[-2]}; echo same\necho next', 'next\n'],
    [
      '${x[-1]:=w} assigns as x[-1]=w',
      'x=abc; echo ${x[-1]:=z}; declare -p x\nunset x; echo ${x[-1]:=z}; echo same\necho next',
      'z\ndeclare -a x=([0]="z")\nnext\n',
    ],
    ['in arithmetic', 'x=abc; echo $((x[-1])) $((x[0]))', '0 0\n'],
    ['unset x[-1] of a scalar', 'x=abc; unset "x[-1]"; echo $? $x', '1 abc\n'],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('break and continue in the condition of while and until (inside the loop, as in bash)', () => {
  it.each([
    [
      'continue starts the next pass of while',
      'i=0; while ((i++<3)) && { [ $i = 2 ] && continue; true; }; do echo $i; done; echo end $i',
      '1\n3\nend 4\n',
    ],
    [
      'break leaves while with 0, until with its last pass’s status',
      'while break; do echo x; done; echo after $?\ni=0; until [ $i = 1 ] && break; do i=1; false; done; echo $?',
      'after 0\n1\n',
    ],
    ['continue leaves until', 'until continue; do echo x; done; echo after $?', 'after 0\n'],
    [
      'break 2 and continue 2 go to the loop around',
      'for j in 1 2; do while continue 2; do echo x; done; echo no; done; echo after $j\nfor j in 1 2; do until break 2; do echo x; done; echo no; done; echo after $j',
      'after 2\nafter 1\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('for with a nameref for its variable points the nameref at each word, as bash does', () => {
  it.each([
    [
      'each word in turn',
      'a=1 b=2; declare -n r; for r in a b; do echo $r; done; declare -p r',
      '1\n2\ndeclare -n r="b"\n',
    ],
    [
      'not through what it named before',
      'x=1; declare -n r=x; for r in a b; do r=5; done; declare -p r x; echo $a $b',
      'declare -n r="b"\ndeclare -- x="1"\n5 5\n',
    ],
    [
      'the last nameref of a chain; a word naming no variable fails the loop',
      'declare -n q=r r; for q in a; do :; done; declare -p q r; for r in 1a b; do echo $r; done; echo $?',
      'declare -n q="r"\ndeclare -n r="a"\n1\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('-v NAME[SUB] expands and evaluates SUB again, as bash does', () => {
  it.each([
    [
      'in [[ ]]',
      `a=(x y); i=1; [[ -v 'a[$i]' ]]; echo $?; [[ -v a[i-1] ]]; echo $?; [[ -v a[2] ]]; echo $?; j=0; [[ -v a[j++] ]]; echo $j`,
      '0\n0\n1\n1\n',
    ],
    [
      'negative subscripts count back',
      'a=(x y); [ -v a[-1] ]; echo $?; test -v "a[-2]"; echo $?; [[ -v a[-3] ]]; echo $?',
      '0\n0\n1\n',
    ],
    [
      'an associative array’s @ is a key',
      'declare -A m=([k]=v); [[ -v m[@] ]]; echo $?; k=k; test -v "m[$k]"; echo $?; m[@]=1; [[ -v m[@] ]]; echo $?',
      '1\n0\n0\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('${x@K} and ${x@k}, as bash 5.2 gives them', () => {
  it.each([
    [
      'a scalar, an element, $@: quoted as @Q',
      `x="it's"; a=(1 "b c"); set -- p "q r"; echo \${x@K} \${x@k} \${a@K} \${a[1]@k} \${@@K}`,
      `'it'\\''s' 'it'\\''s' '1' 'b c' 'p' 'q r'\n`,
    ],
    [
      'an indexed array: subscripts and values',
      `a=(1 "b c" $'t\\tx'); a[7]=y; printf '[%s]\\n' "\${a[@]@K}" "\${a[@]@k}"; IFS=:; echo "\${a[*]@k}"`,
      `[0 "1" 1 "b c" 2 $'t\\tx' 7 "y"]\n[0]\n[1]\n[1]\n[b c]\n[2]\n[t\tx]\n[7]\n[y]\n0:1:1:b c:2:t\tx:7:y\n`,
    ],
    [
      'an associative array, each pair followed by a space',
      `declare -A m=([k]=v ["two words"]='x y' [@]=1); echo "\${m[@]@K}|"; declare -A c="(\${m[@]@K})"; [ "\${c[*]}" = "\${m[*]}" ] && echo same`,
      `"@" "1" k "v" "two words" "x y" |\nsame\n`,
    ],
    [
      'nothing for an empty or unset array',
      'a=(); unset u; echo "[${a[@]@K}][${u[@]@k}][${u@K}]"',
      '[][][]\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

const SIGNALS = [
  'HUP INT QUIT ILL TRAP ABRT BUS FPE KILL USR1 SEGV USR2 PIPE ALRM TERM STKFLT CHLD CONT STOP TSTP',
  'TTIN TTOU URG XCPU XFSZ VTALRM PROF WINCH IO PWR SYS',
]
  .join(' ')
  .split(' ');
const NUMBERED = [
  ...SIGNALS.map((name, k) => [k + 1, name] as const),
  ...Array.from({ length: 31 }, (_, k) => {
    const n = 34 + k;
    return [
      n,
      n === 34 ? 'RTMIN' : n === 64 ? 'RTMAX' : n < 50 ? `RTMIN+${n - 34}` : `RTMAX-${64 - n}`,
    ] as const;
  }),
];
// bash's table: five to a line, each entry followed by a tab but the fifth of a line.
const TABLE = `${NUMBERED.map(([n, name], k) => `${String(n).padStart(2)}) SIG${name}${k % 5 === 4 ? '\n' : '\t'}`).join('')}\n`;

describe('kill -l and trap -l list the signals as bash does', () => {
  it.each([
    ['kill -l, kill -L and trap -l: the whole table', 'kill -l; kill -L; trap -l', TABLE.repeat(3)],
    [
      'numbers, names, real-time ones',
      'kill -l 15 TERM sigkill 143 0 34 50 64 RTMIN+3 rtmax-2 ERR; kill -l 32; echo $?; kill -l 65 foo; echo $?',
      'TERM\n15\n9\nTERM\nEXIT\nRTMIN\nRTMAX-14\nRTMAX\n37\n62\n66\n0\n1\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('an arithmetic assignment to a negative subscript counts back from the end, as bash does', () => {
  it.each([
    [
      'of an array, of a scalar',
      'a=(x y); (( a[-1]=5, a[-2]++ )); echo $((a[-1]++)); declare -p a; x=abc; let "x[-1]=7"; declare -p x',
      '5\ndeclare -a a=([0]="1" [1]="6")\ndeclare -a x=([0]="7")\n',
    ],
    [
      'before the first: nothing is assigned',
      'a=(); (( a[-1]=5 )); echo $?; declare -p a',
      '0\ndeclare -a a=()\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('${x[@]:offset:length} of a scalar slices its value, as ${x:offset:length}', () => {
  it.each([
    [
      'unquoted and quoted',
      'x=abc; echo ${x[@]:1} ${x[*]:1:1} "${x[@]:0:2}" ${x[@]: -1} "[${x[@]:5}]"',
      'bc b ab c []\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('an empty subscript', () => {
  it.each([
    [
      '${a[]} is a bad substitution that discards the line',
      'a=(1); echo ${a[]}; echo same\necho ${#a[]} "${a[]:-x}"\necho next',
      'next\n',
    ],
    [
      'a[]=x, and an empty key of an associative array, a bad subscript that discards the line',
      'a=(1); a[]=x; echo same\ndeclare -A m; k=; m[$k]=2; echo same\nm[""]+=3; echo same\na[$k]=y; echo next "${a[@]}" ${#m[@]}',
      'next y 0\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('names that builtins assign', () => {
  it.each([
    [
      'printf -v with an empty subscript is no identifier',
      'printf -v "m[]" x; echo $?; printf -v "a[1]" y; echo $? ${a[1]}',
      '2\n0 y\n',
    ],
    [
      'getopts: no identifier (status 1), a read-only name (status 2)',
      'getopts a 1x -a; echo $? $OPTIND; getopts a "a[1]" -a; echo $?; readonly r; getopts a r -a -a; echo $? $OPTIND; getopts a 1x -b; echo $?',
      '1 2\n1\n2 3\n1\n',
    ],
    [
      'getopts: OPTIND past the arguments goes back to one past the last',
      'OPTIND=5; getopts a x -a -b; echo $? $OPTIND; set -- -a; OPTIND=9; getopts a x; echo $? $OPTIND',
      '1 3\n1 2\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('declare NAME[SUB]=value expands SUB, as bash expands the whole word', () => {
  it.each([
    [
      'a key, an index, in a function',
      'declare -A m; k=foo; declare m[$k]=y m["a b"]=z; declare -p m; k=2; f(){ local a[$k]=x; declare -p a; }; f',
      'declare -A m=([foo]="y" ["a b"]="z" )\ndeclare -a a=([2]="x")\n',
    ],
    [
      'an empty one is a bad subscript (status 1)',
      'k=; declare -A m; declare m[$k]=y b=2; echo $? $b; declare -p m',
      '1 2\ndeclare -A m\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('declare NAME[SUB] with no value declares NAME an array, as bash does', () => {
  it.each([
    [
      'declare, local, -r; an associative array stays one',
      'x=5; declare x[1]; echo $?; declare -p x; f(){ local a[2]; declare -p a; }; f; declare -r c[1]; declare -A m; declare m[k]; declare -p c m',
      '0\ndeclare -a x=([0]="5")\ndeclare -a a\ndeclare -ar c\ndeclare -A m\n',
    ],
    [
      'export, readonly and an empty SUB: no identifier',
      'export b[1]; echo $?; declare a[]; echo $?',
      '1\n1\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('a subscript has no tilde expansion, as in bash', () => {
  it.each([
    [
      'an associative array’s key ~ is ~',
      'declare -A m=([~]=1); m[~/x]=2; declare m[~y]=3; echo ${m[~]}; declare -p m; [[ -v m[~] ]] && echo set',
      '1\ndeclare -A m=(["~"]="1" ["~/x"]="2" ["~y"]="3" )\nset\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('@ and * as an indexed array’s subscript name no element, as in bash', () => {
  it.each([
    [
      'a[*]=v: a bad subscript that discards the line; declare a[@]=v: status 1',
      'a[*]=1; echo same\na[@]+=2; echo same\ndeclare a[@]=1 b=2; echo $? $b',
      '1 2\n',
    ],
    [
      'a=([*]=v): said and left out',
      'a=([*]=1 [1]=x); echo $?; declare -p a; declare -A m=([*]=3); m[@]=4; declare -p m',
      '0\ndeclare -a a=([1]="x")\ndeclare -A m=(["*"]="3" ["@"]="4" )\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('unset NAME[@] of a scalar', () => {
  it.each([
    [
      'is not an array variable: status 1, the value stays',
      'x=abc; unset "x[@]"; echo $? $x; declare -a a; unset "a[*]"; echo $?',
      '1 abc\n0\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('-v of what the shell computes', () => {
  it.each([
    [
      '$LINENO, $BASH_VERSION, $_ are set; FUNCNAME in a function',
      'for v in LINENO SECONDS BASH_VERSION EPOCHSECONDS _; do [[ -v $v ]] || echo no $v; done; f(){ [[ -v FUNCNAME ]] && test -v BASH_SOURCE && echo fn; }; f; [[ -v FUNCNAME ]] || echo top',
      'fn\ntop\n',
    ],
    [
      'a positional parameter written with blanks or a sign',
      'set -- a; [[ -v " 1" ]]; echo $?; [[ -v +1 ]]; echo $?; [[ -v -1 ]]; echo $?',
      '0\n0\n1\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});
