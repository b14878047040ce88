import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { againstBash } from '../helpers/against-bash.js';

// `<<< WORD` feeds the word, expanded as bash expands it (no splitting, no globbing) and followed by
// a newline, to the command's stdin (or the descriptor written before it).

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'here-string-'));
fs.writeFileSync(path.join(dir, 'a b.txt'), '');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8', HS: 'a  b*' };

const TEXTS = [
  'cat <<< hello',
  'cat <<< "$HS"',
  'cat <<<$HS',
  'wc -c <<< ""',
  'cat <<< ~/x:~/y',
  'tr a-z A-Z <<< "x y" | rev',
  'cat 0<<< zero',
  'false; cat <<< $?',
  'grep -c b <<< "a\nb\nb"',
  "cat <<<'lit $x'",
  'X=1; cat <<< "$X$X"',
  'cat <<< *.txt',
  'cat <<< "one" <<< two',
];

describe('here-strings', () => {
  it.each(TEXTS)('feed what bash feeds: %j', async (text) => {
    const { bash, ours } = await againstBash(text, { cwd: dir, env });
    expect(ours).toEqual(bash);
  });
});
