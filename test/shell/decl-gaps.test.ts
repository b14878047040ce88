import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { expectSameAsBash } from '../helpers/against-bash.js';

// declare and its kin (local, readonly, export, typeset) with arrays, namerefs and attributes, on
// texts where safe-run once answered differently from bash -o pipefail (2026-12-03). Each row is run
// by both in a fresh directory and must give bash's exit code and stdout (messages are sent there
// with 2>&1 where they matter); bash's stdout is written in the row too.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'decl-gaps-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, LANG: 'C.UTF-8' };

const same = (text: string, expected: string) => expectSameAsBash(text, expected, root, env);

describe('listing variables by attribute', () => {
  it.each([
    [
      '-a with another letter lists the arrays having it',
      'declare -i x=1; declare -a y=(1); declare -ia z=(2); declare -ia; declare -p -ai',
      'declare -ai z=([0]="2")\ndeclare -ai z=([0]="2")\n',
    ],
    [
      'other letters: the variables having any of them',
      'declare -i x=1; declare -r z=1; declare -ir w=2; declare -p -ir | grep " [wxz]="',
      'declare -ir w="2"\ndeclare -i x="1"\ndeclare -r z="1"\n',
    ],
    [
      '-A with another letter',
      'declare -A a=([k]=1); declare -i b=2; declare -Ai c; declare -Ai',
      'declare -Ai c\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe("the shell's own variables", () => {
  it.each([
    [
      'EUID, UID and PPID are read-only integers, OPTIND an integer',
      'declare -p EUID UID PPID OPTIND | sed "s/=.*//"; OPTIND=1+1; echo $OPTIND',
      'declare -ir EUID\ndeclare -ir UID\ndeclare -ir PPID\ndeclare -i OPTIND\n2\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('arrays of one kind made the other', () => {
  it.each([
    [
      'declare -A with a list over an indexed array ends the text',
      'a=(1 2); declare -A a=(k v); echo not here',
      '',
    ],
    [
      'and declare -a over an associative one; in eval only the eval',
      'declare -A m=([k]=v); eval "declare -a m=(1 2); echo no"; echo $?; declare -p m',
      '1\ndeclare -A m=([k]="v" )\n',
    ],
    [
      'in a function, declare -g says it and fails',
      'a=(1); f(){ declare -gA a=(k v); echo in $?; }; f 2>/dev/null; declare -p a',
      'in 1\ndeclare -a a=([0]="1")\n',
    ],
    [
      'with a string value it fails and the text goes on',
      'a=(1); declare -A a=x 2>&1; echo $?; declare -p a',
      'bash: line 1: declare: a: cannot convert indexed to associative array\n1\ndeclare -a a=([0]="1")\n',
    ],
    [
      '+a and +A do not make an array a string',
      'a=(1); declare +a a 2>&1; echo $?; declare -A m; declare +A m; echo $?; declare -p a m',
      'bash: line 1: declare: a: cannot destroy array variables in this way\n1\n1\ndeclare -a a=([0]="1")\ndeclare -A m\n',
    ],
    [
      'readonly -A and export -a without a value only give their attribute',
      'a=(1 2); readonly -A a; echo $?; export -a q; declare -p a q',
      '0\ndeclare -ar a=([0]="1" [1]="2")\ndeclare -x q\n',
    ],
    [
      'readonly and export give theirs when the value fails',
      'a=(1); readonly -A a=x 2>/dev/null; echo $?; readonly x=1; export x=2 2>/dev/null; declare -p a x',
      '1\ndeclare -ar a=([0]="1")\ndeclare -rx x="1"\n',
    ],
    [
      'readonly and export take no subscript',
      'a=(1 2); export "a[0]=2" 2>&1; echo $?; readonly q[1]=3; echo $?; declare -p a',
      'bash: line 1: export: `a[0]\': not a valid identifier\n1\n1\ndeclare -a a=([0]="1" [1]="2")\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('a list given to an array element', () => {
  it.each([
    ['as an assignment it ends the text', 'a=(1 2); a[1]=(3); echo not here', ''],
    [
      'in eval only the eval, said as written',
      "i=1; eval 'a[$i]=(3)' 2>&1; echo $?; declare a[1]=(3); echo not here",
      'bash: line 1: a[$i]: cannot assign list to array member\n1\n',
    ],
    [
      "as a command's prefix it is left out",
      '{ a[1]=(3) echo ran; declare -p a; } 2>&1',
      "bash: line 1: `a[1]': not a valid identifier\nran\nbash: line 1: declare: a: not found\n",
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('declare -n and +n', () => {
  it.each([
    [
      'a self reference is refused outside functions',
      'declare -n r=x; declare -n r=r 2>&1; echo $?; declare -n q="q[1]" 2>/dev/null; echo $?; declare -p r',
      'bash: line 1: declare: r: nameref variable self references not allowed\n1\n1\ndeclare -n r="x"\n',
    ],
    [
      'so is a value that names no variable, and an empty one',
      'declare -n r=x; declare -n r=1a 2>&1; echo $?; declare -n q="" 2>/dev/null; echo $?; declare -p r',
      'bash: line 1: declare: `1a\': invalid variable name for name reference\n1\n1\ndeclare -n r="x"\n',
    ],
    [
      'an array, a read-only variable or a string naming no variable is not made a nameref',
      'a=(1); declare -n a 2>/dev/null; echo $?; readonly c=y; declare -n c 2>/dev/null; echo $?; x=1a; declare -n x 2>/dev/null; echo $?; declare -p a c x',
      '1\n1\n1\ndeclare -a a=([0]="1")\ndeclare -r c="y"\ndeclare -- x="1a"\n',
    ],
    [
      '+n with a value assigns through the chain, then the last nameref is a plain variable',
      'declare -n r=r2; declare -n r2=x; declare +n r=5; declare -p r r2 x',
      'declare -n r="r2"\ndeclare -- r2="x"\ndeclare -- x="5"\n',
    ],
    [
      '-n += appends to the nameref itself; -n drops -i, -l and -u',
      'declare -n r=x; declare -n r+=y; declare -i i=3; declare -n i=x; declare -p r i',
      'declare -n r="xy"\ndeclare -n i="x"\n',
    ],
    [
      'a nameref with no value is given only a name',
      'declare -n r; read r <<< 1a; echo $?; declare -p r; r=1a; echo not here',
      '1\ndeclare -n r\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe("a nameref to an array's element", () => {
  it.each([
    [
      'reads and assigns the element',
      'a=(x y z); declare -n r="a[1]"; echo "$r"; r=Q; r+=W; declare -p a r',
      'y\ndeclare -a a=([0]="x" [1]="QW" [2]="z")\ndeclare -n r="a[1]"\n',
    ],
    [
      "an associative array's key, a subscript evaluated when used, one from the end",
      'declare -A m=(["k 1"]=v); declare -n r="m[k 1]"; echo "$r"; r=w; a=(x y z); i=0; declare -n s="a[i]"; i=2; echo $s; declare -n t="a[-1]"; t=7; declare -p m a',
      'v\nz\ndeclare -A m=(["k 1"]="w" )\ndeclare -a a=([0]="x" [1]="y" [2]="7")\n',
    ],
    [
      'in arithmetic, read, printf -v, declare, ${r:=w} and unset',
      'a=(1 2 3 4); declare -n r="a[1]" s="a[2]" t="a[5]"; (( r += 5 )); read s <<< hi; declare -n u="a[0]"; declare u=9; : ${t:=def}; declare -n v="a[3]"; unset v; declare -p a',
      'declare -a a=([0]="9" [1]="7" [2]="hi" [5]="def")\n',
    ],
    [
      'a local nameref, and one to an array not set yet',
      'a=(x y z); f(){ local -n r=$1; echo "$r"; r=N; }; f "a[2]"; declare -n q="b[1]"; q=5; declare -p a b',
      'z\ndeclare -a a=([0]="x" [1]="y" [2]="N")\ndeclare -a b=([1]="5")\n',
    ],
    [
      'a[@] reads every element; assigning it ends the text',
      'a=(x y z); declare -n r="a[@]"; echo "$r"; r=2; echo not here',
      'x y z\n',
    ],
    [
      'export and readonly say it is not a valid identifier, with status 0',
      'a=(x y z); declare -n r="a[1]"; export r 2>&1; echo $?; declare -p a',
      'bash: line 1: export: `a[1]\': not a valid identifier\n0\ndeclare -a a=([0]="x" [1]="y" [2]="z")\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('attributes given together', () => {
  it.each([
    [
      '-l with -u leaves neither',
      'declare -lu x=AbC; declare -u y=abc; declare -ul y; y=AbC; declare -p x y',
      'declare -- x="AbC"\ndeclare -- y="AbC"\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('a value given to an array', () => {
  it.each([
    [
      'in parentheses, from quotes or an expansion, it is read as a list',
      "declare -a x=\"(1 2)\"; v=\"(a 'b c' [5]=q)\"; declare -a y=$v; a=(1 2); declare a+='(3 4)'; declare -A m; declare m='([k]=v)'; declare -p x y a m",
      'declare -a x=([0]="1" [1]="2")\ndeclare -a y=([0]="a" [1]="b c" [5]="q")\ndeclare -a a=([0]="1" [1]="2" [2]="3" [3]="4")\ndeclare -A m=([k]="v" )\n',
    ],
    [
      'otherwise it is element 0, also of an array declared with no value',
      "declare -a x='(1 2'; declare -ai n=1+1; declare -a e; e=abc; declare -A h; h=v; b=1; declare -a b; declare -p x n e h b",
      'declare -a x=([0]="(1 2")\ndeclare -ai n=([0]="2")\ndeclare -a e=([0]="abc")\ndeclare -A h=([0]="v" )\ndeclare -a b=([0]="1")\n',
    ],
    [
      'a string variable keeps its quoted parentheses',
      "declare y='(1 2)'; a=(1 2); a='(3 4)'; declare -p y a",
      'declare -- y="(1 2)"\ndeclare -a a=([0]="(3 4)" [1]="2")\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('${x@A}', () => {
  it.each([
    [
      'a variable, an element, an array, with and without attributes',
      'x=1; declare -r y=2; a=(1 "b c"); declare -A m=([k]=v); declare -n r=x; z="it\'s"; echo "${x@A}"; echo "${y@A}"; echo "${a@A}"; echo "${a[1]@A}"; echo "${a[@]@A}"; echo "${m[@]@A}"; echo "${m@A}"; echo "${r@A}"; echo "${z@A}"; echo "[${nosuch@A}]"',
      "x='1'\ndeclare -r y='2'\ndeclare -a a='1'\ndeclare -a a='b c'\ndeclare -a a=([0]=\"1\" [1]=\"b c\")\ndeclare -A m=([k]=\"v\" )\ndeclare -A m\nx='1'\nz='it'\\''s'\n[]\n",
    ],
    [
      '"${a[@]@A}" is three words; "$@" is set --; one declared with no value',
      'a=(1 2); printf "<%s>\\n" "${a[@]@A}"; set -- "a b" c; echo "${@@A}"; declare -a U; echo "${U@A}"; w=$\'a\\nb\'; echo "${w@A}"',
      "<declare>\n<-a>\n<a=([0]=\"1\" [1]=\"2\")>\nset -- 'a b' 'c'\ndeclare -a U\nw=$'a\\nb'\n",
    ],
    [
      'eval of it makes the variable again',
      'a=(1 "b c"); s="x y"; declare -i n=4; b="${a[@]@A}"; t=${s@A}; k=${n@A}; unset a s n; eval "$b; $t; $k"; declare -p a s n',
      'declare -a a=([0]="1" [1]="b c")\ndeclare -- s="x y"\ndeclare -i n="4"\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('local', () => {
  it.each([
    [
      '-I starts the local as a copy of the variable it hides, a nameref as a plain one',
      'declare -ix x=1; a=(1 2); declare -n r=x; f(){ local -I x a r; declare -p x a r; x=2+2; a[5]=z; echo $x; }; f; echo $x; declare -p a',
      'declare -ix x="1"\ndeclare -a a=([0]="1" [1]="2")\ndeclare -- r="x"\n4\n1\ndeclare -a a=([0]="1" [1]="2")\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe("unset's subscript", () => {
  it.each([
    [
      'is expanded first: $i, ${#a[@]}-1, an associative key from a variable',
      "a=(1 2 3); i=0; unset 'a[$i]'; s=(a b); unset 'stack[${#stack[@]}-1]' 's[${#s[@]}-1]'; declare -A m=([x]=1 ['$k']=2); k=x; unset 'm[$k]'; declare -p a s m",
      'declare -a a=([1]="2" [2]="3")\ndeclare -a s=([0]="a")\ndeclare -A m=(["\\$k"]="2" )\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('a subscript given as text', () => {
  it.each([
    [
      'printf -v, read and ${!r} expand its $ first',
      "a=(1 2 3); i=1; printf -v 'a[$i]' %s X; i=2; read 'a[$i]' <<< R; r='a[$i]'; echo ${!r}; declare -A m; k='a b'; printf -v 'm[$k]' %s v; declare -p a m",
      'R\ndeclare -a a=([0]="1" [1]="X" [2]="R")\ndeclare -A m=(["a b"]="v" )\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('keys of associative arrays', () => {
  it.each([
    [
      'with spaces, an escaped double quote, a bracket in single quotes',
      `declare -A m=([a b]=1 ["c\\"d"]=2 ['e]f']=3); m["x\\"]"]=4; declare -p m`,
      'declare -A m=(["c\\"d"]="2" ["x\\"]"]="4" ["a b"]="1" ["e]f"]="3" )\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('declare -p quoting', () => {
  it.each([
    [
      'keys are quoted only where the shell would read syntax, or a lone @',
      "declare -A m=([a=b]=1 ['~']=2 [@]=3 ['=']=4 ['#']=5 [a#]=6 [é]=7); declare -p m",
      'declare -A m=([=]="4" ["#"]="5" [a=b]="1" ["@"]="3" ["~"]="2" [a#]="6" [é]="7" )\n',
    ],
    [
      "a byte that is no character is written as $'\\NNN', a UTF-8 character only outside a UTF-8 locale",
      "x=$'\\xffé'; declare -p x; LC_ALL=C; declare -p x",
      "declare -- x=$'\\377é'\ndeclare -- x=$'\\377\\303\\251'\n",
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('a pattern that looks like an element assignment', () => {
  it.each([
    [
      'an unquoted [1]=b matches files, else stays as written',
      'x="[1]=b"; echo $x [ab]=c; touch 1=b; echo $x',
      '[1]=b [ab]=c\n1=b\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});
