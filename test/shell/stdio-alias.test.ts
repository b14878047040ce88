import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { againstBash } from '../helpers/against-bash.js';

// A redirection to /dev/stdin, /dev/stdout, /dev/stderr or /dev/fd/N names the stage's own descriptor
// as redirected so far (the pipe, or a file opened anew with the redirection's flags), as the kernel
// resolves the name in bash's child. safe-run used to open the name itself, and so reached its own
// stdin, stdout and stderr instead of the stage's.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stdio-alias-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8' };

const TEXTS = [
  'echo hi | cat < /dev/stdin',
  'echo hi >/dev/stdout | tr a-z A-Z',
  'echo x 2>f >/dev/stderr; cat f',
  'ls missing >out.txt 2>/dev/stdout; cat out.txt',
  'ls missing 2>/dev/stdout | wc -l',
  'echo a > /dev/fd/1 | cat',
  'echo x > /proc/self/fd/1 | rev',
  'echo x > /dev/fd/7; echo $?',
  'echo x >> /dev/stdout | cat',
  'echo y > g; cat < /dev/stdin < g',
  'echo hi 2>/dev/stdout >/dev/null | wc -c',
  'echo hi > /dev/stderr 2>/dev/null; echo after',
  'printf abc > h; printf d >> /dev/stdout >> h | cat; cat h; echo',
  // Any spelling of the names, and none that is not one.
  'echo x >/dev//stdout | tr x y',
  'echo x 2>/dev/fd/1 >/dev/./stderr | tr x y',
  'cd /dev && echo x >stdout | tr x y',
  'ln -s /dev/stdout lnk; echo x > lnk | tr x y; rm lnk',
  'echo x > /proc/thread-self/fd/1 | tr x y',
  'echo x >/dev/fd/01 | tr x y; echo $?',
];

describe('redirections to the names of descriptors', () => {
  it.each(TEXTS)('reach the stage’s own descriptor, as under bash: %j', async (text) => {
    const { bash, ours } = await againstBash(text, { cwd: dir, env });
    for (const file of ['f', 'g', 'h', 'out.txt']) fs.rmSync(path.join(dir, file), { force: true });
    expect(ours).toEqual(bash);
  });
});
