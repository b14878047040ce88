import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

// A harness that starts one safe-run per command: `--session FILE` carries the directory and the
// exported variables from one process to the next, as the MCP session does within one, and `--agent`
// takes any line (what the front end refuses runs under bash).

const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-session-file-')));
const file = path.join(dir, 'session.json');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const agent = (text: string) =>
  runCli(['--agent', '--json', 'compact', '--no-facts', '--session', file, '-c', text], { cwd: dir });
const stdoutOf = (result: { stdout: string }) => JSON.parse(result.stdout).stages.at(-1).stdout?.text;

describe('--session FILE', () => {
  it('carries cd and export from one process to the next', async () => {
    fs.mkdirSync(path.join(dir, 'sub'));
    const first = await agent('cd sub && export GREETING=hello');
    expect(first.code, first.stderr).toBe(0);
    const second = await agent('echo "$PWD $GREETING"');
    expect(second.code, second.stderr).toBe(0);
    expect(stdoutOf(second)).toBe(`${path.join(dir, 'sub')} hello\n`);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('carries what a line bash ran left (a process substitution in an assignment, unset), under --agent without --fallback', async () => {
    const loop = await agent('f=<(true); cd ..; export N=2; unset GREETING');
    expect(loop.code, loop.stderr).toBe(0);
    expect(JSON.parse(loop.stdout).stages.map((stage: { name: string }) => stage.name)).toEqual(['bash']);
    const after = await agent('echo "$PWD [$GREETING] $N"');
    expect(stdoutOf(after)).toBe(`${dir} [] 2\n`);
  });

  it('gives a script its arguments and keeps its end state when bash runs it (--script under --fallback)', async () => {
    const script = path.join(dir, 'menu.sh');
    fs.writeFileSync(
      script,
      'echo "$0 $1 $2"\nselect x in a; do break; done <<< 1 2>/dev/null\nexport PICKED=$x\n',
    );
    const run = await runCli(
      [
        '--json',
        '--no-facts',
        '--fallback',
        'bash',
        '--session',
        file,
        '--script',
        script,
        '--',
        'one',
        'two',
      ],
      { cwd: dir },
    );
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.stages[0].stdout.text).toBe(`${script} one two\n`);
    expect(report.stages[0].argv).toEqual([
      'bash',
      '-o',
      'pipefail',
      '-c',
      fs.readFileSync(script, 'utf8'),
      script,
      'one',
      'two',
    ]);
    const after = await agent('echo "$PICKED"');
    expect(stdoutOf(after)).toBe('a\n');
  });

  it('starts every process at the same SHLVL, as bash -c from the same harness would', async () => {
    const levels: string[] = [];
    for (let call = 0; call < 3; call += 1) levels.push(stdoutOf(await agent('echo $SHLVL')));
    expect(new Set(levels).size, levels.join(',')).toBe(1);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).set).not.toHaveProperty('SHLVL');
  });

  it('refuses a file that is not a session, and an input that is not -c text, before anything runs', async () => {
    const bad = path.join(dir, 'not-a-session.json');
    fs.writeFileSync(bad, '{"hello": 1}\n');
    const refused = await runCli(['--no-facts', '--session', bad, '-c', 'touch ran'], { cwd: dir });
    expect(refused.code).toBe(125);
    expect(refused.stderr).toContain(`--session ${bad}: is not a session file of this safe-run`);
    const argv = await runCli(['--no-facts', '--session', file, '--', 'touch', 'ran'], { cwd: dir });
    expect(argv.code).toBe(125);
    expect(argv.stderr).toContain('applies to -c text only');
    expect(fs.existsSync(path.join(dir, 'ran'))).toBe(false);
  });
});
