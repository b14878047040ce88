import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectSameAsBash } from '../helpers/against-bash.js';
import { runCli } from '../helpers/cli.js';

// Line numbers and names in bash's messages, and malformed ${...}, where safe-run once answered
// otherwise than bash -o pipefail (found by probing, 2026-12-03). Each row runs under both in a fresh
// directory; bash's stdout (stderr too where the row sends it there with 2>&1) is written in the row.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lineno-gaps-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, LANG: 'C.UTF-8' };

const same = (text: string, expected: string) => expectSameAsBash(text, expected, root, env);

// `text` as a script file s.sh, run by `bash s.sh` and `safe-run --script s.sh`: stdout and status
// (a row that wants stderr starts with exec 2>&1).
async function sameAsScript(text: string, expected: string): Promise<void> {
  const dir = fs.mkdtempSync(path.join(root, 'script-'));
  fs.writeFileSync(path.join(dir, 's.sh'), text);
  const bash = spawnSync('bash', ['--norc', 's.sh'], { cwd: dir, env, encoding: 'utf8' });
  expect(bash.stdout).toBe(expected);
  const ours = await runCli(['--no-facts', '-q', '--script', 's.sh'], { cwd: dir, env });
  expect({ code: ours.code, stdout: ours.stdout }).toEqual({ code: bash.status, stdout: bash.stdout });
}

describe('malformed parameter expansions', () => {
  it.each([
    [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
      'an empty offset, ${x:}: bad substitution, and the rest of the line is dropped',
      '{ echo ${x:}; } 2>&1; echo same\necho "next $?"; x=1\n{ echo "${x:}"; } 2>&1\na=(1); { echo ${a[@]:}; } 2>&1\n{ echo ${@:}; } 2>&1\necho ok',
      'bash: line 1: ${x:}: bad substitution\nnext 1\nbash: line 3: ${x:}: bad substitution\nbash: line 4: ${a[@]:}: bad substitution\nbash: line 5: ${@:}: bad substitution\nok\n',
    ],
    [
      'an empty offset inside a default; spaces or a newline as the offset are fine',
      'x=abc; echo ${x: } ${x::1} ${x:\n}\n{ echo ${y:-${z:}}; } 2>&1\necho $?',
      'abc a abc\nbash: line 3: ${z:}: bad substitution\n1\n',
    ],
    [
      'indirection of $! or $$',
      '{ echo ${!!}; } 2>&1\n{ echo ${!$:-x}; } 2>&1\necho $?',
      'bash: line 1: ${!!}: bad substitution\nbash: line 2: ${!$:-x}: bad substitution\n1\n',
    ],
    [
      'a subscript not closed before the brace',
      '{ echo ${x[}; } 2>&1\n{ echo ${#x[}; } 2>&1\n{ echo ${x[1}; [ a ]; } 2>&1\necho $?',
      'bash: line 1: ${x[}: bad substitution\nbash: line 2: ${#x[}: bad substitution\nbash: line 3: ${x[1}: bad substitution\n1\n',
    ],
    [
      'an unknown transformation is nothing when unset',
      'echo "[${x@Z}] [${x@}] [${x@Q@}]"; a=(); echo "[${a[@]@Z}]"',
      '[] [] []\n[]\n',
    ],
    [
      'an unknown transformation of a set parameter ends the shell with 127 (1 in a subshell)',
      '(x=abc; echo ${x@Z}; echo in) 2>&1; echo "sub $?"; { set -- a; echo ${@@Z}; } 2>&1\necho not-reached',
      'bash: line 1: ${x@Z}: bad substitution\nsub 1\nbash: line 1: ${@@Z}: bad substitution\n',
    ],
    [
      'with a set parameter, also an empty or a long one',
      'x=; { echo ${x@} ; } 2>&1\necho not-reached',
      'bash: line 1: ${x@}: bad substitution\n',
    ],
    [
      'no parameter before an operator, or a length with one',
      '{ echo ${:-a}; } 2>&1\n{ echo ${=x}; } 2>&1\n{ echo ${/x}; } 2>&1\n{ echo ${#a[@]:1}; } 2>&1\necho $?',
      'bash: line 1: ${:-a}: bad substitution\nbash: line 2: ${=x}: bad substitution\nbash: line 3: ${/x}: bad substitution\nbash: line 4: ${#a[@]:1}: bad substitution\n1\n',
    ],
    [
      "a slice's arithmetic: not evaluated when unset, its error after the parameter's name",
      'echo "[${x:1/0}] [${x:(}]"; a=(); echo "[${a[@]:1/0}]"\nx=abc; { echo ${x:0:1/0}; } 2>&1\n{ echo ${x:(}; } 2>&1\n{ echo ${@:1/0}; } 2>&1\na=(1); { echo ${a[@]:1/0}; } 2>&1\necho $?',
      '[] []\n[]\nbash: line 2: x: 1/0: division by 0 (error token is "0")\nbash: line 3: x: (: syntax error: operand expected (error token is "(")\nbash: line 4: @: 1/0: division by 0 (error token is "0")\nbash: line 5: a[@]: 1/0: division by 0 (error token is "0")\n1\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });

  it('in a script file, named by the file', async () => {
    await sameAsScript(
      'exec 2>&1\necho ${x:}\necho "next $?"\nf() { x=abc; echo ${x@Z}; }\nf\necho not-reached\n',
      's.sh: line 2: ${x:}: bad substitution\nnext 1\ns.sh: line 4: ${x@Z}: bad substitution\n',
    );
  });
});

// bash begins a message with BASH_SOURCE[0] when there is one, else $0: a function of the -c text
// says "environment", a sourced file (and a function defined in it) its name as found.
describe('the name before line N in messages', () => {
  it.each([
    [
      "a -c text's function: environment",
      'f() { nosuch; }; { f; } 2>&1; f() { cd /nonexistent; }; { f; } 2>&1; { f() { ${x:?oops}; }; (f); } 2>&1; { f() { nosuch | cat; }; f; } 2>&1\n{ f() {\n  nosuch\n}; eval f; (f); } 2>&1; nosuch 2>&1',
      'environment: line 1: nosuch: command not found\nenvironment: line 1: cd: /nonexistent: No such file or directory\nenvironment: line 1: x: oops\nenvironment: line 1: nosuch: command not found\nenvironment: line 3: nosuch: command not found\nenvironment: line 3: nosuch: command not found\nbash: line 4: nosuch: command not found\n',
    ],
    [
      'a sourced file and its functions, at the top and from a function',
      "printf 'echo in\\nnosuch\\ng() {\\n  nosuch2\\n}\\n' > s.sh; { . ./s.sh; g; } 2>&1; f() { source s.sh; }; { f; } 2>&1; { h() { g; }; h; } 2>&1",
      'in\n./s.sh: line 2: nosuch: command not found\n./s.sh: line 4: nosuch2: command not found\nin\ns.sh: line 2: nosuch: command not found\ns.sh: line 4: nosuch2: command not found\n',
    ],
    [
      'a file found on PATH: the directory as written',
      'mkdir d; printf \'nosuch\\n\' > d/p.sh; PATH=$PATH:d; { source p.sh; } 2>&1; PATH=/usr/bin:$PWD/d/; { . p.sh; } 2>&1 | sed "s|$PWD|~|"',
      'd/p.sh: line 1: nosuch: command not found\n~/d/p.sh: line 1: nosuch: command not found\n',
    ],
    [
      'a file that is not there is named alone, without source',
      '{ source nonexist; . ./nonexist; f() { source nonexist; }; f; source; } 2>&1; echo $?',
      'bash: line 1: nonexist: No such file or directory\nbash: line 1: ./nonexist: No such file or directory\nenvironment: line 1: nonexist: No such file or directory\nbash: line 1: source: filename argument required\nsource: usage: source filename [arguments]\n2\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });

  it('a script file: its name, in its functions and after a sourced file', async () => {
    await sameAsScript(
      "exec 2>&1\nprintf 'nosuch1\\n' > t.sh\nf() {\n  . ./t.sh\n  nosuch2\n}\nf\nnosuch3\n",
      './t.sh: line 1: nosuch1: command not found\ns.sh: line 5: nosuch2: command not found\ns.sh: line 8: nosuch3: command not found\n',
    );
  });
});

describe('here-documents in command substitutions', () => {
  it.each([
    [
      'started in an assignment whose substitution ends on the same line: the body is on the next lines',
      'x=$(cat <<EOF)\nbody $HOME\nEOF\necho "[${#x}]"\ny=$(cat <<EOF; echo in) ; echo "[$y]"\nb2\nEOF\nexport X=$(cat <<A; cat <<B)\none\nA\ntwo\nB\necho "$X"; a=([k]=$(cat <<EOF)\nv\nEOF\n); echo ${a[k]}',
      `[${'body '.length + root.length}]\n[b2\nin]\none\ntwo\nv\n`,
    ],
    [
      'ended by a line that starts with the delimiter and holds the closing parenthesis',
      'x=$(cat <<EOF\na\nEOF )\necho "[$x]"\ny=$(cat <<-EOF\n\tb\n\tEOF); echo "[$y]"; echo "$(cat <<EOF\nq\nEOF)"',
      '[a]\n[b]\nq\n',
    ],
    [
      "bash's parser warnings, said as the line is read",
      'exec 2>w\necho 1\nx=$(cat <<EOF\na\nEOF )\necho "[$x]"\ny=$(cat <<A; cat <<B)\nb\nA\nc\nB\necho "[$y]"\ncat w; cat <<A; cat <<B\na\nA\nb',
      "1\n[a]\n[b\nc]\nbash: line 5: warning: here-document at line 3 delimited by end-of-file (wanted `EOF')\nbash: line 7: warning: command substitution: 2 unterminated here-documents\nbash: line 16: warning: here-document at line 15 delimited by end-of-file (wanted `B')\na\nb\n",
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('$LINENO and the line in messages', () => {
  it.each([
    [
      'a simple command whose first word is followed by a word over several lines takes the line that word ends on',
      'echo "a\nb" $LINENO; echo $LINENO "c\nd"\nx="e\nf" echo $LINENO; 2>/dev/null echo "g\nh" $LINENO\necho "i\nj" $LINENO | cat\n{ nosuch "k\nl"; } 2>&1',
      'a\nb 2\n2 c\nd\n5\ng\nh 5\ni\nj 8\nbash: line 10: nosuch: command not found\n',
    ],
    [
      'in a $( ) over several lines: numbered on from the line of the command it is for, one line per command',
      'x=$(echo a\necho $LINENO)\necho $x $LINENO\necho $(\necho $LINENO\n# a comment\n\necho $LINENO\n)\necho $(echo $LINENO;\necho $LINENO |\ncat\necho $LINENO &&\necho $LINENO)',
      'a 3 3\n9 10\n14 14 15 15\n',
    ],
    [
      "a message from a $( )'s command, in a function and a loop too",
      '{ out=$(\n  cd /nonexistent\n  nosuch\n  echo $LINENO\n); } 2>e; cat e; echo "$out"\nf() {\n  local v\n  v=$(\n    nosuch\n  )\n}\n{ f; } 2>e; cat e\nfor i in 1; do\n  r=$(\n    echo "x\ny" $LINENO\n  ); echo $r\ndone',
      'bash: line 5: cd: /nonexistent: No such file or directory\nbash: line 6: nosuch: command not found\n7\nenvironment: line 10: nosuch: command not found\nx y 18\n',
    ],
    [
      'compound commands in a $( ), in the layout bash prints them in',
      'x=$(\n  if false; then\n    echo no\n  elif true; then\n    echo $LINENO\n  else\n    echo no\n  fi\n  for i in 1; do\n    echo $LINENO\n  done\n  case a in\n    b) echo no ;;\n    a)\n      echo $LINENO\n      ;;\n  esac\n  { echo $LINENO\n    echo $LINENO; }\n  while false; do :; done\n  echo $LINENO\n); echo $x',
      '26 33 40 43 44 48\n',
    ],
    [
      'a backquoted command over several lines, numbered from its text as written',
      'x=`echo $LINENO\necho "a\nb" $LINENO\nif true; then\n  echo $LINENO\nfi`; echo $x\ny=$(\n  echo `echo $LINENO\necho $LINENO`\n  echo $LINENO\n); echo $y',
      '6 a b 8 10\n12 13 13\n',
    ],
    [
      "a here-document's $( )",
      'cat <<EOF\n$(echo\necho $LINENO)\n$LINENO\nEOF\necho "$(\n  echo $LINENO\n)"',
      '\n2\n1\n8\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });

  it('in a script file', async () => {
    await sameAsScript(
      'exec 2>e\nv=$(\n  nosuch\n)\necho "a\nb" $LINENO\ncat e\n',
      'a\nb 6\ns.sh: line 4: nosuch: command not found\n',
    );
  });
});
