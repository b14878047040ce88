import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectSameAsBash, stdoutBothWays } from '../helpers/against-bash.js';

// set -x as bash traces, each row against bash (which must print `expected`), the trace sent to
// stdout by `exec 2>&1`. Before, only a simple command's words were traced: no assignments, no
// pipeline elements, no for/case/(( ))/[[ ]] heads, and a plain subshell added a `+` where a
// command substitution, eval, source and traps do.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'xtrace-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, LANG: 'C.UTF-8' };
const traced = (text: string, expected: string) =>
  expectSameAsBash(`exec 2>&1; set -x; ${text}`, expected, root, env);

// For traces whose order bash leaves to the scheduler (a pipeline's elements trace from processes of
// their own) or that hold a pid: the lines compared as a sorted list, numbers of two digits or more
// as N.
async function tracedLoosely(text: string, expected: string): Promise<void> {
  const { bash, ours } = await stdoutBothWays(`exec 2>&1; set -x; ${text}`, root, env);
  const lines = (out: string) =>
    out
      .replace(/\d{2,}/g, 'N')
      .split('\n')
      .sort();
  expect(lines(bash.stdout)).toEqual(lines(expected));
  expect(lines(ours.stdout)).toEqual(lines(bash.stdout));
  expect(ours.code).toBe(bash.code);
}

describe('set -x', () => {
  it('traces assignments, each on its own line, values quoted, arrays and subscripts as written', async () => {
    await traced('x=1; A=1 B="x y" true', "+ x=1\n+ A=1\n+ B='x y'\n+ true\n");
    await traced('w=""; v=$(printf "a\\nb")', "+ w=\n++ printf 'a\\nb'\n+ v='a\nb'\n");
    await traced(
      'i=2; x[$i]=4; x=( 1  "a b" [3]=c ); x+=(d)',
      '+ i=2\n+ x[$i]=4\n+ x=(1 "a b" [3]=c)\n+ x+=(d)\n',
    );
    await traced('x=1 y=$x; echo $y', '+ x=1\n+ y=1\n+ echo 1\n1\n');
    await traced(
      'export V=1 W="a b" X; declare -i n=3; readonly R+=2',
      "+ export V=1 'W=a b' X\n+ V=1\n+ W='a b'\n+ declare -i n=3\n+ readonly R+=2\n+ R+=2\n",
    );
  });

  it('traces the elements of a pipeline', async () => {
    await tracedLoosely('echo hi | cat', '+ echo hi\n+ cat\nhi\n');
  });

  it('traces for, case and arithmetic heads as written', async () => {
    await traced('for i in 1 "2 3"; do :; done', '+ for i in 1 "2 3"\n+ :\n+ for i in 1 "2 3"\n+ :\n');
    await traced('set -- a; for i; do :; done', '+ set -- a\n+ for i in "$@"\n+ :\n');
    await traced('case "a b" in a*) echo m;; esac', '+ case "a b" in\n+ echo m\nm\n');
    await traced('((  x=1 )); ((x++))', '+ ((   x=1  ))\n+ (( x++ ))\n');
    await traced(
      'for (( i = 0 ; i < 1 ; i++ )); do :; done; for ((;;)); do break; done',
      '+ (( i = 0  ))\n+ (( i < 1  ))\n+ :\n+ (( i++  ))\n+ (( i < 1  ))\n+ (( 1 ))\n+ (( 1 ))\n+ break\n',
    );
  });

  it('traces each test of [[ ]] with its operands as bash shows them', async () => {
    await traced(
      'x=; [[ $x ]] || [[ ! -z "" || a != "b c" ]]',
      "+ x=\n+ [[ -n '' ]]\n+ [[ ! -z '' ]]\n+ [[ a != \\b\\ \\c ]]\n",
    );
    await traced(
      'p="b*"; [[ bc == $p ]]; [[ ! ( 1 -eq 2 ) ]]',
      "+ p='b*'\n+ [[ bc == b* ]]\n+ [[ 1 -eq 2 ]]\n",
    );
    await traced('[[ a.c =~ "a.c" ]]; [[ ! ! x ]]', '+ [[ a.c =~ a\\.c ]]\n+ [[ -n x ]]\n');
  });

  it('adds a level in command substitutions, eval, source and signal traps, not in subshells or the EXIT trap', async () => {
    await traced(
      '(echo a); x=$(echo $(echo in)); eval "echo d"',
      "+ echo a\na\n+++ echo in\n++ echo in\n+ x=in\n+ eval 'echo d'\n++ echo d\nd\n",
    );
    await traced('(trap "echo t" EXIT; :)', "+ trap 'echo t' EXIT\n+ :\n++ echo t\nt\n");
    await tracedLoosely(
      'trap "echo t" EXIT; trap "echo u" USR1; kill -USR1 $$',
      "+ trap 'echo t' EXIT\n+ trap 'echo u' USR1\n+ kill -USR1 N\n++ echo u\nu\n+ echo t\nt\n",
    );
  });

  it('expands PS4 before each line, with the commands of its own substitutions untraced', async () => {
    await traced(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
      'PS4="+ \\${FUNCNAME[0]:-main}:\\$LINENO: "\nf() { true; }\nf',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's trace, not a template
      "+ PS4='+ ${FUNCNAME[0]:-main}:$LINENO: '\n+ main:3: f\n+ f:2: true\n",
    );
    await traced(
      'PS4="+\\$(echo x) "; x=$(echo in); echo done',
      "+ PS4='+$(echo x) '\n++x echo in\n+x x=in\n+x echo done\ndone\n",
    );
  });
});
