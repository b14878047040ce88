import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

// bash opens `< FILE` once for the whole `bash -c TEXT`: its steps read one file, each from where
// the one before stopped (a regular file's offset is shared; a FIFO's writer is there once). safe-run
// once opened --stdin FILE again for each step, which started a file over and left a FIFO's second
// reader waiting for a writer that never came.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stdin-file-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8' };
const TEXT = 'head -c 3; echo; head -c 3; echo; cat';

describe('--stdin FILE with a text of several steps', () => {
  it('reads a regular file on from where the step before stopped, as bash < FILE does', async () => {
    const file = path.join(dir, 'input.txt');
    fs.writeFileSync(file, 'abcdefghij');
    const input = fs.openSync(file, 'r');
    const viaFile = execFileSync('bash', ['-c', TEXT], { stdio: [input, 'pipe', 'pipe'], encoding: 'utf8' });
    fs.closeSync(input);
    const result = await runCli(['--no-facts', '-q', '--stdin', file, '-c', TEXT], { env });
    expect(result.code).toBe(0);
    expect(viaFile).toBe('abc\ndef\nghij');
    expect(result.stdout).toBe(viaFile);
  });

  it('opens a FIFO once: the steps after the first read the same writer', async () => {
    const fifo = path.join(dir, 'input.fifo');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', 'printf abcdefgh > "$0"', fifo], { stdio: 'ignore' });
    // A limit well above what the run needs: a step waiting for a second writer would end as 124.
    const result = await runCli(['--no-facts', '-q', '--timeout', '20s', '--stdin', fifo, '-c', TEXT], {
      env,
    });
    await new Promise((resolve) => (writer.exitCode === null ? writer.once('exit', resolve) : resolve(null)));
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('abc\ndef\ngh');
  });
});
