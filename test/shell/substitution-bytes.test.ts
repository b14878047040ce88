// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the texts are bash source
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stdoutBothWays } from '../helpers/against-bash.js';

// What a program writes into $(...) arrives byte for byte. The collector kept views of the engine's
// pooled buffers, which were reused after each write: `x=$(seq 200000)` had bash's length and other
// bytes, and `x=$(exec 2>&1; ls nosuch)` read "cann" where ls had written "ls: " (1 run in 30).

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'subst-bytes-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, LANG: 'C.UTF-8' };

describe('a command substitution', () => {
  it('keeps every byte of a large output', async () => {
    const text = 'x=$(seq 200000); echo ${#x}; printf %s "$x" | cksum';
    const { bash, ours } = await stdoutBothWays(text, root, env);
    expect(bash.stdout.split('\n')[0]).toBe('1288894');
    expect(ours).toEqual(bash);
  });

  it('keeps the first of several small writes', async () => {
    const text = 'for i in 1 2 3 4 5 6 7 8; do x=$(exec 2>&1; ls nosuch-file); echo "${x:0:3}"; done';
    const { bash, ours } = await stdoutBothWays(text, root, env);
    expect(bash.stdout).toBe('ls:\n'.repeat(8));
    expect(ours).toEqual(bash);
  });
});
