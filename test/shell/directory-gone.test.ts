import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { againstBash } from '../helpers/against-bash.js';
import { runCli } from '../helpers/cli.js';

// A step whose directory an earlier step removed: bash runs it there (its child processes inherit
// the removed directory), but no process can be started in it by path. safe-run once failed with
// an internal error (its expansion helper could not start) or "command not found" (127). The
// refusal comes when the step is reached, after the steps before it ran: the run ends there (125),
// with a report of what ran.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'directory-gone-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8', PWD: dir };

describe('a step in a directory an earlier step removed', () => {
  it.each([
    ['mkdir gone && cd gone && rmdir ../gone; ls', 'ls', 4],
    ['mkdir gone && cd gone && rm -r ../gone && ls | wc -l; echo never', 'ls | wc -l', 4],
  ])(
    'that starts a program is refused when it is reached, and the run ends there: %j',
    async (text, step, index) => {
      const where = `${step} at line 1, column ${text.indexOf(step) + 1}`;
      const result = await runCli(['--no-facts', '-c', text], { cwd: dir, env });
      expect(result.code).toBe(125);
      expect(result.stderr).not.toMatch(/internal error|command not found/);
      expect(result.stderr).toMatch(/^step \d+: .*: refused$/m);
      expect(result.stderr).toContain(
        `safe-run: not ok, exit 125 (step ${index} was refused: ${where} runs in ${path.join(dir, 'gone')}, which an earlier step removed)\n`,
      );
      expect(result.stderr).toMatch(
        /^next: .*give it whole to bash as one supervised stage: safe-run -- bash -o pipefail -c 'TEXT'$/m,
      );
      expect(fs.existsSync(path.join(dir, 'gone'))).toBe(false);
    },
  );

  it('that runs builtins runs as bash runs it', async () => {
    const text = 'mkdir gone && cd gone && rmdir ../gone; echo "$HOME"; pwd; cd ..; pwd';
    const { bash, ours } = await againstBash(text, { cwd: dir, env });
    expect(ours).toEqual(bash);
  });
});
