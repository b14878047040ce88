import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

// Text the shell runs while it runs (eval's words, a sourced file) is checked when it is reached. A
// construct safe-run does not run there ends the run (125) after what ran before it, and the advice
// is the one for any step refused when reached, never "safe-run was interrupted".

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nested-refusal-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8', PWD: dir };

describe('a construct refused inside eval or source', () => {
  it.each([
    ['echo a; eval "coproc cat"; echo never', 2],
    ['echo a; echo b; . ./piece.sh; echo never', 3],
  ])('ends the run at its step with the advice to give the text to bash: %j', async (text, step) => {
    fs.writeFileSync(path.join(dir, 'piece.sh'), 'coproc cat\n');
    const result = await runCli(['--no-facts', '-c', text], { cwd: dir, env });
    expect(result.code).toBe(125);
    expect(result.stdout).not.toContain('never');
    expect(result.stderr).toMatch(/coproc at (line 1, )?column 1 starts a coprocess/);
    expect(result.stderr).not.toContain('-c: ');
    expect(result.stderr).toMatch(
      new RegExp(`^next: the steps before step ${step} ran, .*safe-run -- bash -o pipefail -c 'TEXT'$`, 'm'),
    );
  });
});
