import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stdoutBothWays } from '../helpers/against-bash.js';

// Expansions of a few hundred thousand words once ended safe-run with "internal error: Maximum call
// stack size exceeded" (each word passed as an argument of one call): `set -- $(seq 200000)`.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'large-expansion-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, LANG: 'C.UTF-8' };

describe('an expansion of 200,000 words', () => {
  it.each([
    'set -- $(seq 200000); echo $#',
    'echo {1..200000} | wc -w',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
    'a=($(seq 200000)); echo ${#a[@]}; a+=(x); echo ${a[-1]} ${#a[@]}',
  ])('gives what bash gives: %j', async (text) => {
    const { bash, ours } = await stdoutBothWays(text, root, env);
    expect(ours).toEqual(bash);
  });
});
