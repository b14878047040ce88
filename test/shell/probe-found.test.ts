import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectSameAsBash } from '../helpers/against-bash.js';
import { runCli } from '../helpers/cli.js';

// Texts on which safe-run answered differently from bash -o pipefail, found by probing it with the
// kind of texts agents and CI steps run (2026-12-03). Each row is run by both in a fresh directory and
// must give bash's exit code and stdout; bash's stdout is written in the row too. A row about a message
// sends stderr into stdout to compare it.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'probe-found-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/home/probe', LANG: 'C.UTF-8' };

describe('found by probing', () => {
  it.each([
    [
      "single quotes and $'...' quote in a double-quoted replacement",
      `x=abc; echo "\${x/b/'B'}" "\${x/b/'&'}" "\${x/b/'$HOME'}" "\${x/b/$'\\t'}|" "\${x/b/\\\\}"`,
      'aBc a&c a$HOMEc a\tc| a\\c\n',
    ],
    [
      'trap -p lists EXIT, the signals by number, then ERR; the ones named in their order',
      "trap 'x' USR1 HUP ERR EXIT; trap '' CHLD; trap; trap -p INT EXIT; trap -p TERM NOPE 2>&1; echo \"rc=$?\"; trap - EXIT",
      "trap -- 'x' EXIT\ntrap -- 'x' SIGHUP\ntrap -- 'x' SIGUSR1\ntrap -- '' SIGCHLD\ntrap -- 'x' ERR\ntrap -- 'x' EXIT\nbash: line 1: trap: NOPE: invalid signal specification\nrc=1\n",
    ],
    [
      'trap takes -p, -- and -pp as bash does; an unknown option and a lone - are usage errors',
      'trap "echo x" EXIT; trap -p -- EXIT; trap -pp EXIT; trap -x 2>&1; echo $?; trap - 2>&1; echo $?; trap -- - EXIT; trap -p',
      "trap -- 'echo x' EXIT\ntrap -- 'echo x' EXIT\nbash: line 1: trap: -x: invalid option\ntrap: usage: trap [-lp] [[arg] signal_spec ...]\n2\ntrap: usage: trap [-lp] [[arg] signal_spec ...]\n2\n",
    ],
    [
      'trap with one word that is no signal is a usage error, status 2',
      'trap NOPE 2>&1; echo $?; trap 99 2>&1; echo $?; trap INT; echo $?',
      'trap: usage: trap [-lp] [[arg] signal_spec ...]\n2\ntrap: usage: trap [-lp] [[arg] signal_spec ...]\n2\n0\n',
    ],
    [
      'a usage line has no "bash: line N:" before it; source says source, a missing file names no builtin',
      'getopts 2>&1; printf 2>&1; kill 2>&1; source 2>&1; . nofile 2>&1; source /no/file 2>&1; echo "$?"',
      'getopts: usage: getopts optstring name [arg ...]\nprintf: usage: printf [-v var] format [arguments]\nkill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\nbash: line 1: source: filename argument required\nsource: usage: source filename [arguments]\nbash: line 1: nofile: No such file or directory\nbash: line 1: /no/file: No such file or directory\n1\n',
    ],
    [
      'an invalid option to a declaration builtin is followed by its usage line',
      'declare -z 2>&1; export -z 2>&1; echo "$?"',
      'bash: line 1: declare: -z: invalid option\ndeclare: usage: declare [-aAfFgiIlnrtux] [name[=value] ...] or declare -p [-aAfFilnrtux] [name ...]\nbash: line 1: export: -z: invalid option\nexport: usage: export [-fn] [name[=value] ...] or export -p\n2\n',
    ],
    [
      'read -N does not split: the first name takes exactly what was read, delimiters too',
      'read -N 5 a b <<< "x y z"; declare -p a b; read -N 4 x <<< "  ab"; declare -p x; read -r -N 4 y <<< ab; echo "rc=$? [$y]"',
      'declare -- a="x y z"\ndeclare -- b=""\ndeclare -- x="  ab"\nrc=1 [ab\n]\n',
    ],
    [
      'declare with attribute letters and no names lists the variables with one of them; local lists the locals',
      'x=1; a=(1 2); declare -A h=([k]=v); declare -i n=3; declare -l lw=A; export E=1; declare -A | grep " h="; declare -l; declare -n; declare -a | grep " a="; declare -i | grep " n="; declare -x | grep -c " x="; f() { local z=1 b; local -a q=(1); local; }; f',
      'declare -A h=([k]="v" )\ndeclare -l lw="a"\ndeclare -a a=([0]="1" [1]="2")\ndeclare -i n="3"\n0\ndeclare -- b\ndeclare -a q=([0]="1")\ndeclare -- z="1"\n',
    ],
    [
      "echo -e's octal escape is \\0NNN alone; printf's %b takes \\NNN too",
      'echo -e "\\0101|\\101|\\1|"; printf "%b|" "\\101" "\\1"; echo',
      'A|\\101|\\1|\nA|\x01|\n',
    ],
    [
      'a [subscript]=value element of a compound assignment may hold blanks in its brackets',
      'declare -A m=([a b]=c [x  y]="d e"); declare -p m; a=([1 + 1]=x [ 3 ]=y "[4 ]=z"); declare -p a',
      'declare -A m=(["x  y"]="d e" ["a b"]="c" )\ndeclare -a a=([2]="x" [3]="y" [4]="[4 ]=z")\n',
    ],
    [
      'an unset variable under set -u in the EXIT trap ends it; the shell keeps the status the trap began with',
      'set -u; (trap \'echo "c $u"; echo more\' EXIT; exit 3); echo "sub $?"; trap \'echo "c $u"\' EXIT; echo body; (exit 6)',
      'sub 3\nbody\n',
    ],
    [
      '[[ =~ ]] with an expression that does not compile is status 2 with no message, false to || and true under !',
      '{ [[ a =~ [ ]]; echo "$?"; [[ ! a =~ [ ]]; echo "$?"; [[ a =~ [ || 1 == 1 ]]; echo "$?"; [[ 1 == 2 || a =~ [ ]]; echo "$?"; } 2>&1',
      '2\n0\n0\n2\n',
    ],
    [
      'a builtin writing to a full device says "No space left on device"',
      '{ echo hi > /dev/full; echo "$?"; printf x > /dev/full; } 2>&1',
      'bash: line 1: echo: write error: No space left on device\n1\nbash: line 1: printf: write error: No space left on device\n',
    ],
    [
      'kill -l with a number or a status above 128 names the signal, with a name gives its number',
      'sh -c \'kill -TERM $$\'; kill -l $?; kill -l 9 0 term SIGINT; kill -l 99 2>&1; echo "rc=$?"',
      'TERM\nKILL\nEXIT\n15\n2\nbash: line 1: kill: 99: invalid signal specification\nrc=1\n',
    ],
    [
      "printf's %(...)T follows TZ from the environment: exported or given to the command",
      'TZ=Asia/Tokyo; printf "%(%H)T\\n" 0; TZ=America/New_York printf "%(%H %Z)T\\n" 0; export TZ=Asia/Tokyo; printf -v h "%(%H)T" 0; echo "$h"',
      '00\n19 EST\n09\n',
    ],
    [
      'declare -n again on a nameref points it elsewhere; declare +n takes the attribute off the name itself',
      'for n in a b; do declare -n cur=$n; cur=set-$n; done; echo "$a $b"; declare -n r=x; declare +n r; declare -p r',
      'set-a set-b\ndeclare -- r="x"\n',
    ],
    [
      'an associative array given plain words takes them as keys and values in turn',
      'declare -A m=(a 1 b); declare -p m; declare -A t; t=(x "$((1+1))"); t+=(y 3); declare -p t; exec 2>&1; declare -A n=([x]=1 y); declare -p n; n=([x]=1 z)',
      'declare -A m=([b]="" [a]="1" )\ndeclare -A t=([y]="3" [x]="2" )\nbash: line 1: n: \'y\': must use subscript when assigning associative array\ndeclare -A n=([x]="1" )\nbash: line 1: n: z: must use subscript when assigning associative array\n',
    ],
    [
      'read -n 0 reads nothing and empties the name',
      'read -r -n 0 d <<< "xyz"; echo "[$d] $?"; { read -n 0 a; read b; echo "$b"; } <<< line',
      '[] 0\nline\n',
    ],
    [
      "mapfile refuses an associative array and says bash's words for a bad number or option",
      'exec 2>&1; declare -A m; mapfile -t m <<< x; echo "$?"; readonly RO=(1); mapfile RO <<< x; echo "$?"; mapfile -n x a; mapfile -O x a; mapfile -z; echo "$?"',
      'bash: line 1: mapfile: m: not an indexed array\n1\nbash: line 1: RO: readonly variable\n1\nbash: line 1: mapfile: x: invalid line count\nbash: line 1: mapfile: x: invalid array origin\nbash: line 1: mapfile: -z: invalid option\nmapfile: usage: mapfile [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]\n2\n',
    ],
    [
      'declare -A on an indexed array (and -a on an associative one) is an error that leaves it as it is',
      'exec 2>&1; a=(1); declare -A a; echo "$?"; declare -p a; declare -A m=([k]=v); declare -a m; declare -p m; x=1; declare -A x; declare -p x',
      'bash: line 1: declare: a: cannot convert indexed to associative array\n1\ndeclare -a a=([0]="1")\nbash: line 1: declare: m: cannot convert associative to indexed array\ndeclare -A m=([k]="v" )\ndeclare -A x=([0]="1" )\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await expectSameAsBash(text, expected, root, env);
  });
  it('refuses declare with no arguments, which lists every variable of the shell as set does', async () => {
    const result = await runCli(['--no-facts', '-q', '-c', 'x=1; declare | grep "^x="'], { cwd: root, env });
    expect(result.code).toBe(125);
    expect(result.stdout).toBe('');
  });
});
