import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-cwd-')));
fs.mkdirSync(path.join(root, 'work', 'sub'), { recursive: true });
fs.writeFileSync(path.join(root, 'file'), '');

describe('--cwd DIR', () => {
  it('runs every stage in DIR', async () => {
    const result = await runCli(['--no-facts', '--cwd', path.join(root, 'work'), '-c', 'pwd | cat']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${path.join(root, 'work')}\n`);
  });

  it("places a spec stage's relative cwd under DIR", async () => {
    const spec = path.join(root, 'p.yaml');
    fs.writeFileSync(spec, 'version: 1\nstages:\n  - run: [pwd]\n    cwd: sub\n');
    const result = await runCli(['--no-facts', '--cwd', path.join(root, 'work'), '-f', spec]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${path.join(root, 'work', 'sub')}\n`);
  });

  const refusals: [string, string, string][] = [
    ['a missing directory', path.join(root, 'missing'), 'no such directory'],
    ['a file', path.join(root, 'file'), 'not a directory'],
    ['an empty name', '', 'empty; name a directory'],
  ];
  for (const [what, dir, reason] of refusals) {
    it(`refuses ${what} with exit 125 before anything starts`, async () => {
      const marker = path.join(root, `started-${what.length}`);
      const result = await runCli(['--no-facts', '--cwd', dir, '--', 'touch', marker]);
      expect(result.code).toBe(125);
      expect(result.stderr).toBe(`safe-run: --cwd${dir === '' ? '' : ` ${dir}`}: ${reason}\n`);
      expect(fs.existsSync(marker)).toBe(false);
    });
  }
});
