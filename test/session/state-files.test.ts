import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readStateFiles, stateFilesIn, stateTrap } from '../../src/session/state-files.js';

const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "safe-run-state-it's-")));
const files = stateFilesIn(dir);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function bash(text: string) {
  fs.rmSync(files.cwd, { force: true });
  fs.rmSync(files.env, { force: true });
  return spawnSync('bash', ['--norc', '-o', 'pipefail', '-c', `${stateTrap(files)}\n${text}`], {
    cwd: '/',
    encoding: 'utf8',
  });
}

describe('the state the bash fallback leaves', () => {
  it('keeps the exit status and reads back the directory and exported variables', () => {
    const result = bash(`cd ${JSON.stringify(dir)} && export LINES_OF='a\nb=c' && NOT_EXPORTED=1 && exit 3`);
    expect(result.status).toBe(3);
    const after = readStateFiles(files);
    expect(after?.cwd).toBe(dir);
    expect(after?.env.LINES_OF).toBe('a\nb=c');
    expect(after?.env.PATH).toBe(process.env.PATH);
    // Not exported, and what bash sets anew for each command, are not carried.
    expect(after?.env).not.toHaveProperty('NOT_EXPORTED');
    expect(after?.env).not.toHaveProperty('SHLVL');
    expect(after?.env).not.toHaveProperty('PWD');
    expect(after?.vars).toEqual({});
  });

  it('survives a failing pipeline and a comment on the last line', () => {
    const result = bash(`cd /tmp; false | true # the end`);
    expect(result.status).toBe(1);
    expect(readStateFiles(files)?.cwd).toBe('/tmp');
  });

  it('is unknown when the command replaced the EXIT trap', () => {
    const result = bash('trap "echo mine" EXIT; cd /tmp');
    expect(result.stdout).toBe('mine\n');
    expect(readStateFiles(files)).toBeNull();
  });
});
