import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { againstBash, stdoutBothWays } from '../helpers/against-bash.js';

// A redirection whose path the kernel refuses for a reason other than a missing file (a path through
// a regular file, a symlink loop, a name too long) fails its command as bash fails it: the message on
// stderr, status 1, and the text goes on. It used to end safe-run with an unhandled rejection.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'redirect-errors-'));
fs.writeFileSync(path.join(dir, 'a.txt'), 'hi\n');
fs.symlinkSync('loop', path.join(dir, 'loop'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8' };
const LONG = 'n'.repeat(300);

const TEXTS = [
  'echo x > a.txt/f; echo $?',
  'cat < a.txt/f; echo $?',
  'echo x 2> a.txt/x/ && echo ran || echo failed',
  'echo x >> loop; echo $?',
  `echo x > ${LONG}; echo $?`,
  'echo x > a.txt/f 2>&1 | cat; echo $? done',
];

describe('a redirection the kernel refuses', () => {
  it.each(TEXTS)('fails its command as bash does: %j', async (text) => {
    const { bash, ours } = await againstBash(text, { cwd: dir, env });
    expect(ours).toEqual(bash);
    expect(fs.readdirSync(dir).sort()).toEqual(['a.txt', 'loop']);
  });
});

// `>&WORD` is `&>WORD` unless the word expands to a number or `-` (bash then copies or closes that
// descriptor): a file name, however written, is taken; a descriptor is copied or closed.
describe('>&WORD decided by its expansion', () => {
  it.each([
    'F=o.txt; echo x >&"$F"; cat o.txt; rm o.txt',
    'F=o.txt; ls nope >& $F; cat o.txt; rm o.txt',
    'echo z > zz.txt; echo hi >&zz*; cat zz.txt; rm zz.txt',
  ])('writes the file a name gives, as bash: %j', async (text) => {
    const { bash, ours } = await againstBash(text, { cwd: dir, env });
    expect(ours).toEqual(bash);
  });

  // A word that expands to a number or `-` names a descriptor, as bash decides after expansion.
  it.each(['X=2; echo hi >&$X', 'echo hi >&"-"; echo $?', 'X=1; echo hi >&"$X" | tr h H'])(
    'takes a descriptor named once expanded, as bash: %j',
    async (text) => {
      const { bash, ours } = await againstBash(text, { cwd: dir, env });
      expect(ours).toEqual(bash);
      expect(fs.readdirSync(dir).sort()).toEqual(['a.txt', 'loop']);
    },
  );
});

// A compound command's own redirection that fails is said at its line, as bash says it (safe-run
// said the line of the last simple command before it: `line 0` for the first), and a for loop's
// words and an arithmetic for's parts see their own line in $LINENO.
describe('the line bash names', () => {
  // (Each case in a fresh directory of its own, away from the files checked above.)
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'redirect-lines-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  it.each([
    '{ { :; } > nodir/x; } 2>&1; echo $?',
    'echo a\n{ while false; do :; done < nodir/x; } 2>&1',
    'echo a; echo b\n{ if :; then :; fi > nodir/x; } 2>&1',
    'for i in $LINENO; do\necho $i\ndone\nfor i in $LINENO; do echo $i; done',
    'echo\nfor ((i=LINENO; i<LINENO+3; i++)); do\necho $i $LINENO; done',
    'echo\ncase $LINENO in\n*) echo $LINENO;;\nesac 2>/dev/null',
    // A compound command's failed redirection fails it for errexit and the ERR trap, with $? 1.
    'set -e; { :; } > nodir/x; echo after',
    // read of a descriptor open for writing only: bash's read error, status 1 (an internal error, 125).
    'exec 3>w.txt; read -u 3 x 2>&1; echo "rc=$?"; { read -u 1 y 2>&1; echo "rc=$?"; } | cat',
    'trap "echo ERR \\$?" ERR; while false; do :; done < nodir/x; echo b; if :; then :; fi > nodir/x || echo ok',
  ])('as bash: %j', async (text) => {
    // (Real stdout: the shell's own message is no stage's output.)
    const { bash, ours } = await stdoutBothWays(text, root, env);
    expect(ours).toEqual(bash);
  });
});
