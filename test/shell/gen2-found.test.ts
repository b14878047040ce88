import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectSameAsBash, stdoutBothWays } from '../helpers/against-bash.js';

// Texts on which safe-run once answered differently from bash -o pipefail, found by a generator of
// random texts (here-documents, case, extended patterns, parameter expansions, printf, brace
// expansion, IFS, read, getopts, traps, arithmetic, [[ ]], $'...', echo; 2026-12-04). Each row is
// run by both in a fresh directory and must give bash's exit code and stdout, written in the row too.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gen2-found-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, LANG: 'C.UTF-8' };

const same = (text: string, expected: string) => expectSameAsBash(text, expected, root, env);

describe('found by the generator', () => {
  it.each([
    [
      'a RETURN trap runs as the function that set it ends, with $? of the last command before',
      "f() { trap 'echo ret $?' RETURN; echo in; return 3; }; f; echo after $?; f\ng() { trap 'echo r $?; false' RETURN; false; }; g; echo $?",
      'in\nret 0\nafter 3\nin\nret 0\nr 1\n1\n',
    ],
    [
      'a function starts without the RETURN trap, and the caller keeps its own',
      "f() { trap 'echo r1' RETURN; g; }; g() { echo g; }; f; trap - RETURN; f\ntrap 'echo A' RETURN; h() { trap - RETURN; }; h; trap -p RETURN; set -T; k() { echo k; }; k",
      "g\nr1\ng\nr1\ntrap -- 'echo A' RETURN\nk\nA\n",
    ],
    [
      'a RETURN trap runs as a sourced file ends',
      "trap 'echo R $?' RETURN; echo 'false; return 3' > s.sh; . ./s.sh; echo after $?",
      'R 1\nafter 3\n',
    ],
    [
      'an empty "" next to an unquoted expansion\'s leading or trailing white space is a word of its own',
      'v=" a b "; printf "<%s>" ""$v"" x""$v; echo; w=""; printf "<%s>" ""$w"" ""; echo',
      '<><a><b><><x><a><b>\n<><>\n',
    ],
    [
      "unquoted $* and $@ are joined by IFS's first character and split as one text",
      'IFS=a; set -- a "b c" d; printf "<%s>" $*; echo; IFS=:; set -- "a:" "" b; printf "<%s>" $@ ${@#a}; echo; set -- "" ""; printf "<%s>" $@; x=$@; echo "[$x]"',
      '<><><b c><d>\n<a><><><b><><><><b>\n<>[ ]\n',
    ],
    [
      "set -x prints a printable non-ASCII character as it is, a control character in $'...'",
      "{ set -x; : éA $'a\\x01b' $'\\x7f' ~x a~ a^b; set +x; } 2>&1",
      "+ : éA $'a\\001b' $'\\177' '~x' a~ 'a^b'\n+ set +x\n",
    ],
    [
      "a declaration builtin's NAME=( ... ) is expanded before it runs: set -x shows its elements quoted first",
      "{ set -x; a=b; declare -a z=([3]=x \"it's\" '' *.none) y=2; declare -A m=([$a]=v); set +x; } 2>&1",
      "+ a=b\n+ z=(['3']='x' 'it'\\''s' '' '*.none')\n+ declare -a z y=2\n+ m=(['b']='v')\n+ declare -A m\n+ set +x\n",
    ],
    [
      'the words of NAME=( ... ) are all expanded before any subscript is worked out',
      'i=0; z=([i++]=$i [i++]=$i); declare -a y=([i++]=$i); declare -p z y i',
      'declare -a z=([0]="0" [1]="0")\ndeclare -a y=([2]="2")\ndeclare -- i="3"\n',
    ],
    [
      'in an unquoted here-document, a line ending in \\ goes on on the next, which is then no delimiter',
      'cat <<EOF\nplain \\\nEOF\nEO\\\nF\necho "$LINENO"\ncat <<-EOF\n\ta \\\n\tb\n\tEOF\n',
      'plain EOF\n6\na \tb\n',
    ],
    [
      "$'\\x{HH}' takes every hex digit up to the brace",
      "printf '<%s>' $'\\x{41}' $'\\x{4142}z' $'a\\x{}b'; echo",
      '<A><Bz><a>\n',
    ],
    [
      'a ${...} ends at the first } that closes no nested ${, a bare { in its word opening nothing',
      'x=v; echo ${x:-{a,b}}.{c,d} "${x:-{a}}"; echo ${u:-a{b c}d}; y=a{b}c; echo ${y#a{} ${y/{b}/Q}',
      'v}.c v}.d v}\na{b cd}\nb}c a}c/Q}\n',
    ],
    [
      "$'\\c\\\\' is control-backslash, its escaped backslash one character",
      "printf '<%s>' $'\\c\\\\' $'\\c\\\\x' | od -An -tx1",
      ' 3c 1c 3e 3c 1c 78 3e\n',
    ],
    [
      'getopts reads OPTIND as bash does: past the arguments it is put after them, 0 or text starts over',
      'OPTIND=5; getopts a o -a -b; echo "$? $o $OPTIND"; OPTIND=0; getopts a o -a; echo "$? $o $OPTIND"; OPTIND=x; getopts a o -a; echo "$? $o $OPTIND"',
      '1 ? 3\n0 a 2\n0 a 2\n',
    ],
    [
      'a local hiding an exported variable is exported; one without a value leaves the hidden one in the environment',
      'export X=1; f() { local X=2; env | grep ^X=; declare -p X; }; f; g() { local X; env | grep ^X=; local +x Y=2; }; g; h() { local +x X=3; env | grep ^X=; }; h',
      'X=2\ndeclare -x X="2"\nX=1\nX=1\n',
    ],
    [
      'read -t 0 only asks whether there is input, and sets no name',
      'v=keep; read -t 0 v <<< x; echo "$? $v"; read -t 0 w <<< ""; echo "[${w-unset}]"; a=(1); read -t 0 -a a <<< x; echo "${a[@]}"',
      '0 keep\n[unset]\n1\n',
    ],
    [
      'in a UTF-8 locale a character of IFS may be several bytes, and white space before it makes a field',
      'IFS=é; v=aéb; printf "<%s>" $v; echo; v=aééb; printf "<%s>" $v; echo; IFS="é "; v="a é b"; printf "<%s>" $v; echo',
      '<a><b>\n<a><><b>\n<a><><b>\n',
    ],
    [
      "a failing $(( )) in a word of [[ ]] ends the line as in any command; -eq's own arithmetic fails [[ ]] only",
      '[[ 1 -eq 1+ ]]; echo "rc=$?"\n[[ "$(( 1 + ))" < a ]] || echo or; echo same-line\necho next',
      'rc=1\nnext\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('a text that dies of a signal it sends to its own shell (bash dies of it: no exit code)', () => {
  it.each([
    ['{ echo a; kill -USR1 $$; echo no; } 2>&1', 'a\n', 138],
    ['f() { ( kill -HUP $$; echo in ); echo no; } 2>&1; f; echo no', 'in\n', 129],
  ])(
    "safe-run's note on its death goes to its own stderr, never into the text's redirected stderr: %s",
    async (text, expected, code) => {
      const { bash, ours } = await stdoutBothWays(text, root, env);
      expect(bash).toEqual({ code: null, stdout: expected });
      expect(ours).toEqual({ code, stdout: expected });
    },
  );
});
