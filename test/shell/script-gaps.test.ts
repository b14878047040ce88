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
