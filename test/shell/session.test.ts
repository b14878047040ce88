import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/settings/defaults.js';
import { runShellText } from '../../src/shell/run-shell-text.js';
import { initialState } from '../../src/shell/shell-state.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'session-'));
fs.mkdirSync(path.join(dir, 'sub'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const settings = { ...DEFAULT_SETTINGS, facts: null };

describe('a session of command texts', () => {
  it('carries cd, export and shell variables from one call to the next', async () => {
    const start = initialState(dir, { PATH: process.env.PATH });
    const first = await runShellText('cd sub && export GREETING="hi there" && NAME=x', start, settings);
    expect(first.report.exitCode).toBe(0);
    expect(first.state.cwd).toBe(path.join(dir, 'sub'));
    expect(first.state.env.GREETING).toBe('hi there');
    expect(first.state.env.OLDPWD).toBe(dir);
    expect(first.state.vars).toEqual({ NAME: 'x' });
    const out = path.join(dir, 'sub', 'out.txt');
    const second = await runShellText(
      'echo "$GREETING $NAME" > out.txt; pwd >> out.txt',
      first.state,
      settings,
    );
    expect(second.report.steps?.map((step) => step.cwd)).toEqual([first.state.cwd, first.state.cwd]);
    expect(fs.readFileSync(out, 'utf8')).toBe(`hi there x\n${path.join(dir, 'sub')}\n`);
  });

  it('exports in a later call a name exported earlier while it had no value, as bash would', async () => {
    const start = initialState(dir, { PATH: process.env.PATH });
    const first = await runShellText('export LATER B=1', start, settings);
    expect(first.state.env).toMatchObject({ B: '1' });
    expect(first.state.env).not.toHaveProperty('LATER');
    expect(first.state.exportedUnset).toEqual(['LATER']);
    const second = await runShellText('LATER=now', first.state, settings);
    expect(second.state.env.LATER).toBe('now');
    expect(second.state.vars).not.toHaveProperty('LATER');
    expect(second.state.exportedUnset).toBeUndefined();
  });

  it('keeps the state of the last step that ran when a cd fails', async () => {
    const start = initialState(dir, { PATH: process.env.PATH });
    const { report, state } = await runShellText('cd nowhere || cd sub', start, settings);
    expect(report.steps?.map((step) => [step.ran, step.exitCode])).toEqual([
      [true, 1],
      [true, 0],
    ]);
    expect(report.stages[0]!.stderr.text).toMatch(/cd: nowhere: No such file or directory/);
    expect(state.cwd).toBe(path.join(dir, 'sub'));
  });
});
