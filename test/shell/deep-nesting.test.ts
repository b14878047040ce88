import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deep-nesting-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// The parser and the check of a text walk it recursively: a text nested some thousand levels deep ran
// JavaScript's stack out, and safe-run answered "internal error: Maximum call stack size exceeded".
// It is refused before anything starts, with the way out that works: bash runs it as one stage.
const groups = (depth: number) => `${'{ '.repeat(depth)}echo in; ${'}; '.repeat(depth)}`;

describe('a text nested deeper than the parser can hold', () => {
  it('is refused before anything runs, as syntax.nesting, on stderr and in JSON', async () => {
    const text = `touch ran; ${groups(3000)}`;
    const plain = await runCli(['--no-facts', '-q', '-c', text], { cwd: dir });
    expect(plain.code).toBe(125);
    expect(plain.stderr).toBe(
      'safe-run: -c: the text nests more deeply than safe-run can read (its stack ran out); add --fallback bash to run the whole text as one supervised bash stage\n',
    );
    const json = await runCli(['--no-facts', '--json', '-c', text], { cwd: dir });
    expect(JSON.parse(json.stdout).error.code).toBe('syntax.nesting');
    expect(fs.existsSync(path.join(dir, 'ran'))).toBe(false);
  });

  it('is refused when reached inside eval, after what ran before it', async () => {
    const text = `echo before; eval '${groups(3000)}'; echo after`;
    const result = await runCli(['--no-facts', '-q', '-c', text], { cwd: dir });
    expect(result.stdout).toBe('before\n');
    expect(result.code).toBe(125);
    expect(result.stderr).toContain('eval: the text nests more deeply than safe-run can read');
    expect(result.stderr).not.toContain('internal error');
  });

  it('runs under --fallback bash, which takes it', async () => {
    const result = await runCli(['--no-facts', '-q', '--fallback', 'bash', '-c', groups(2000)]);
    expect(result.stdout).toBe('in\n');
    expect(result.code).toBe(0);
  });

  it('is run by the interpreter at a few hundred levels', async () => {
    const result = await runCli(['--no-facts', '-q', '-c', `${groups(300)}echo out`]);
    expect(result.stdout).toBe('in\nout\n');
    expect(result.code).toBe(0);
  });
});
