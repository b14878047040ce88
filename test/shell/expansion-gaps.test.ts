import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { expectSameAsBash } from '../helpers/against-bash.js';

// Expansions on which safe-run's interpreter once answered differently from bash -o pipefail: each
// row is run by both in a fresh directory and must give bash's exit code and stdout (bash's own
// messages are sent to stdout by the text where they matter); bash's stdout is written in the row
// too, so that a machine whose bash does otherwise fails the row instead of passing it.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'expansion-gaps-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, LANG: 'C.UTF-8' };

const same = (text: string, expected: string) => expectSameAsBash(text, expected, root, env);

// Prints how many words it was given, then each in <>.
const F = `f() { printf '%s:' "$#"; printf '<%s>' "$@"; echo; }; a=(); b=(x y); e=(""); `;

describe('an operator’s word in place of an empty array or "$@"', () => {
  it.each([
    [
      '":-" and "-" give one empty word',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
      'f "${a[@]:-}"; f "${u[@]-}"; f "${@:-}"; f "${@-}"',
      '1:<>\n'.repeat(4),
    ],
    [
      'the word stays whatever it expands to',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
      'f "${a[@]:-$u}"; f "${a[@]:-"${a[@]}"}"; f "${a[@]:-$@}"; f "${u[@]:-${b[@]}}"',
      '1:<>\n1:<>\n1:<>\n2:<x><y>\n',
    ],
    [
      '":+" of a set array gives its (empty) word',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
      'f "${b[@]:+}"; f "${b[@]+}"; f "${a[@]:+}"; f "${e[@]:+}"; f "${e[@]:+x}"; set -- ""; f "${@:+}"; f ${b[@]:+}',
      '1:<>\n1:<>\n0:<>\n1:<>\n1:<>\n1:<>\n0:<>\n',
    ],
    [
      '"$*" is null when joined by an empty IFS',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
      'IFS=; set -- "" ""; f "${*:-y}"; f "${*:+y}"; b=("" ""); f "${b[*]:-y}"; f ${*:-y}',
      '1:<y>\n1:<>\n1:<y>\n0:<>\n',
    ],
    [
      'in a list, a for loop and a here-string',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
      'x=("${a[@]:-}" "${b[@]:+}"); echo ${#x[@]}; for w in "${a[@]-}"; do echo "[$w]"; done; cat <<< "${@:-}"',
      '2\n[]\n\n',
    ],
    [
      'the := form is a bad subscript on an array',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
      '{ echo "${u[*]:=}"; } 2>&1; echo not',
      'bash: line 1: u[*]: bad array subscript\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(F + text, expected);
  });
});

describe('brace expansion that leaves no text', () => {
  it.each([
    [
      'is no word',
      'echo {a,}; echo x {,} y; echo {,a}; f {,}; f {,,}; f {,}{,}; f {,x}{,}',
      'a\nx y\na\n0:<>\n0:<>\n0:<>\n2:<x><x>\n',
    ],
    [
      'in a list and a for loop',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
      'a=({a,} {,}); echo ${#a[@]}; for w in {,a,}; do echo "[$w]"; done',
      '1\n[a]\n',
    ],
    ['in quotes or beside an empty expansion it is', 'f {,}$u; f {,}"$u"; f {"",}', '0:<>\n2:<><>\n1:<>\n'],
  ])('%s', async (_what, text, expected) => {
    await same(F + text, expected);
  });
});

describe('case toggling', () => {
  it.each([
    [
      'of the first character and of all, with and without a pattern',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
      'x=aBc; echo ${x~} ${x~~} ${x~~[a-c]} ${x~[b]} ${x~~B} ${x~~?}; p="[a-z]"; echo ${x~~$p} "${x~~"$p"}"',
      'ABc AbC ABC aBc abc AbC\nABC aBc\n',
    ],
    [
      'of arrays, $@ and text that is not ASCII',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
      'a=(aB Cd); echo ${a[@]~~} "${a[*]~}"; set -- hEllo; echo ${@~~}; y=éÀ; echo ${y~~} ${y~}',
      'Ab cD AB cd\nHeLLO\nÉà ÉÀ\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

// set -u reaches arithmetic: a name with no value read there ends the shell as bash's does (status
// 127 under -c), its message on stderr (sent to stdout here by the group's redirection).
describe('set -u in arithmetic', () => {
  it.each([
    [
      'in (( )) and $(( ))',
      'set -u; { (( z > 0 )) || echo no; echo after; } 2>&1',
      'bash: line 1: z: unbound variable\n',
    ],
    ['in $(( ))', 'set -u; { echo $((z+1)); echo after; } 2>&1', 'bash: line 1: z: unbound variable\n'],
    ['in let', 'set -u; { let "x=w+1"; echo after; } 2>&1', 'bash: line 1: w: unbound variable\n'],
    ['in [[ -eq ]]', 'set -u; { [[ q -eq 0 ]]; echo after; } 2>&1', 'bash: line 1: q: unbound variable\n'],
    [
      'in for (( ))',
      'set -u; { for ((i=0;i<n;i++)); do :; done; echo after; } 2>&1',
      'bash: line 1: n: unbound variable\n',
    ],
    [
      'in a subscript and an offset',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
      'set -u; a=(1); { echo ${a[z]}; } 2>&1; echo after',
      'bash: line 1: z: unbound variable\n',
    ],
    [
      'through a value and a nameref',
      'set -u; x=y; declare -n r=zz; { echo $((r)); } 2>&1',
      'bash: line 1: zz: unbound variable\n',
    ],
    [
      'but not for a name assigned, skipped, or an array’s missing element',
      'set -u; (( z = 1 )); echo $(( 0 && q )) $(( 1 ? 2 : q )); a=(1); x[3]=1; e=(); echo $((a[3] + x + e[0])); n=; for ((i=0;i<n;i++)); do :; done; echo after; { echo $((q)); } 2>&1',
      '0 2\n0\nafter\nbash: line 1: q: unbound variable\n',
    ],
    [
      'an expansion in (( )) that fails ends the shell',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
      '{ (( ${u:?x} )); echo after; } 2>&1',
      'bash: line 1: u: x\n',
    ],
    [
      'unset of an element',
      'set -u; unset "v[z]"; a=(1 2); { unset "a[z]"; echo after; } 2>&1',
      'bash: line 1: z: unbound variable\n',
    ],
    [
      'a readonly variable assigned is said plainly and fails the command only',
      'readonly r=1; { (( r=2 )); let r=3; [[ r=4 -eq 1 ]]; echo $?; } 2>&1',
      `${'bash: line 1: r: readonly variable\n'.repeat(3)}1\n`,
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('indirection through a name that is no variable', () => {
  it.each([
    [
      'is an error whatever the operator',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
      'set -u; x=; unset x; { echo "${!x-}"; } 2>&1; echo not',
      'bash: line 1: x: invalid indirect expansion\n',
    ],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
    ['with a subscript', '{ echo "${!a[0]:+d}"; } 2>&1', 'bash: line 1: a[0]: invalid indirect expansion\n'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
    ['an empty name', 'x=; { echo "[${!x:-d}]"; } 2>&1', 'bash: line 1: : invalid variable name\n'],
    [
      'one declared with no value, an unset $1 or a missing element names nothing',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
      'declare x; a=(); set --; echo "[${!x}${!1}${!a[0]}]"; set -u; { echo "${!a[0]}"; } 2>&1',
      '[]\nbash: line 1: !a[0]: unbound variable\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('variables bash sets for itself', () => {
  it.each([
    [
      'OSTYPE, MACHTYPE, HOSTTYPE, BASH_LOADABLES_PATH as this bash has them',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
      'set -u; [[ $OSTYPE == linux* ]] && echo linux; [[ $MACHTYPE == "${BASH_VERSINFO[5]}" && $MACHTYPE == $HOSTTYPE-*-$OSTYPE ]] && echo same; [[ $BASH_LOADABLES_PATH == *:. ]] && echo path',
      'linux\nsame\npath\n',
    ],
    [
      'OPTERR and GROUPS',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
      'declare -p OPTERR; [[ ${GROUPS[0]} == $(id -g) ]] && echo group',
      'declare -- OPTERR="1"\ngroup\n',
    ],
    [
      'assigned and unset as any other, in a subshell too',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
      'OSTYPE=x; unset MACHTYPE; (echo "$OSTYPE [${MACHTYPE-unset}]"; [[ -n $HOSTTYPE ]] && echo host) | cat',
      'x [unset]\nhost\n',
    ],
    [
      'OPTERR=0 silences getopts',
      'OPTERR=0; { getopts a o -x; echo "$? $o"; getopts b: o -b; echo "$o"; } 2>&1',
      '0 ?\n?\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('shopt -u patsub_replacement', () => {
  it.each([
    [
      'keeps & in a replacement as text',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
      'shopt -u patsub_replacement; x=abc; r="<&>"; echo ${x/b/<&>} ${x//[ac]/<&>} ${x/#a/&&} ${x/b/$r}',
      'a<&>c <&>b<&> &&bc a<&>c\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

// A failed expansion ends bash -c's own shell with 127 for an unset parameter, but with 1 under set -e
// or in a subshell, as bash does.
describe('the status a failed expansion ends with', () => {
  it.each([
    ['under set -e', 'set -eu; echo $z; echo after', ''],
    [
      'in subshells',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
      'set -u; (echo $z); echo $?; x=$(echo ${u?}); echo $?; { echo $z; } | cat; echo $?',
      '1\n1\n1\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});
