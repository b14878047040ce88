import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-shown-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe('names with control characters', () => {
  it('are escaped in the table, its messages and the verdict, never printed raw', async () => {
    const { code, stderr } = await runCli(['--no-facts', '--', 'ba\x1b[31md\nname']);
    expect(code).toBe(127);
    expect(stderr).not.toContain('\x1b');
    expect(stderr).toContain('1  ba\\e[31md\\nname  not-started');
    expect(stderr).toContain('ENOENT: `ba\\e[31md\\nname` was not found on PATH');
    // Every line is a line of the table or of a message: the newline in the name forged none.
    expect(stderr.split('\n').filter((line) => line.startsWith('name'))).toEqual([]);
  });

  it("are written as bash's $'...' on the command: line, which bash reads back as the same words", async () => {
    const words = ['printf', '%s|', 'ba\x1b[31md\nname', "it's", 'a\tb\\c'];
    const { code, stderr } = await runCli(['--no-facts', '--', ...words]);
    expect(code).toBe(0);
    const line = stderr.split('\n').find((l) => l.startsWith('command: '))!;
    expect(line).toBe("command: printf '%s|' $'ba\\x1b[31md\\nname' 'it'\\''s' $'a\\tb\\\\c'");
    // The same text given to real bash prints the same bytes as the words themselves.
    const again = spawnSync('bash', ['-c', line.slice('command: '.length)]);
    expect(again.stdout.toString()).toBe(
      words
        .slice(2)
        .map((w) => `${w}|`)
        .join(''),
    );
  });

  it('are escaped in the stage-name prefix of live stderr lines', async () => {
    const program = path.join(scratch, 'say\x1b[2Jit');
    fs.writeFileSync(program, '#!/bin/sh\necho "said" >&2\n', { mode: 0o755 });
    // -c refuses control characters in its text; a spec file names such a program as it is.
    const spec = path.join(scratch, 'escaped.json');
    fs.writeFileSync(spec, JSON.stringify({ version: 1, stages: [{ run: ['true'] }, { run: [program] }] }));
    const { code, stderr } = await runCli(['--no-facts', '-f', spec]);
    expect(code).toBe(0);
    expect(stderr).toContain('[say\\e[2Jit] said\n');
    expect(stderr).not.toContain('\x1b');
  });
});
