import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { expectSameAsBash } from '../helpers/against-bash.js';

// Texts on which safe-run once answered differently from bash -o pipefail, found by probing it with
// what CI steps and agents write (2026-12-03). Each row is run by both in a fresh directory and must
// give bash's exit code and stdout; bash's stdout is written in the row too.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'script-gaps-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, LANG: 'C.UTF-8' };

const same = (text: string, expected: string) => expectSameAsBash(text, expected, root, env);

describe('here-documents inside command substitutions', () => {
  it.each([
    [
      'in an assignment, the rest of the text is not taken for its body',
      'x=$(cat <<EOF\nmulti $HOME\nEOF\n)\necho "[${#x}]"\necho third',
      `[${'multi '.length + root.length}]\nthird\n`,
    ],
    ['in an assignment ended on the same line', 'x=$(cat <<EOF\nhi\nEOF\n); echo "[$x]"', '[hi]\n'],
    [
      'in local, export and an array element',
      'f() { local x=$(cat <<EOF\nin f\nEOF\n); echo "$x"; }; f\nexport X=$(cat <<EOF\nexp\nEOF\n); echo $X\na=([k]=$(cat <<EOF\nel\nEOF\n)); echo ${a[k]}',
      'in f\nexp\nel\n',
    ],
    ['two in one substitution', 'x=$(cat <<A; cat <<B\none\nA\ntwo\nB\n); echo "$x"', 'one\ntwo\n'],
    [
      'in a here-document body, the substitution sees its own assignments and loops',
      'i=9; cat <<EOF\n$(i=5; echo v $i)\n$(for i in 1 2; do echo "item $i"; done)\n$(f() { echo fn; }; f)\n$([[ a == a ]] && echo cond)\n$(cat <<EOT\nnested\nEOT\n)\ntail\nEOF',
      'v 5\nitem 1\nitem 2\nfn\ncond\nnested\ntail\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('the EXIT trap', () => {
  it.each([
    [
      "an exit in a subshell's trap ends the subshell only",
      '( trap "exit 0" EXIT; echo in-sub ); echo "tests:"; ( trap "exit 3" EXIT; exit 6 ); echo "rc=$?"; false',
      'in-sub\ntests:\nrc=3\n',
    ],
    [
      "a subshell's trap sees the status it exits with",
      '( trap "echo t=\\$?" EXIT; exit 6 ); echo "rc=$?"; echo x | ( trap "echo t=\\$?; exit 2" EXIT; cat; exit 6 ); echo "rc=$?"',
      't=6\nrc=6\nx\nt=6\nrc=2\n',
    ],
    [
      'a bare exit in it gives the status it began with, from a function, a subshell, eval',
      'cleanup() { rm -f nothing; exit; }; trap cleanup EXIT; false',
      '',
    ],
    ['a bare exit after a command of its own', 'trap "echo t; exit" EXIT; (exit 4)', 't\n'],
    ['a bare exit in a substitution in it', 'trap "true; x=\\$(exit); echo \\$?" EXIT; false', '1\n'],
    ['a bare exit in eval in it', 'trap "true; eval exit" EXIT; false', ''],
    ['but in an ERR trap, the last command’s', 'trap "true; exit" ERR; false; echo no', ''],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});
