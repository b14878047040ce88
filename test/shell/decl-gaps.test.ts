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
