import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/types.js';
import { runCli } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';

// --script FILE and -e: a CI step's script run as the runner's `bash -e FILE` runs it (GitHub Actions:
// `shell: safe-run -e --script {0}`), step for step: the same stdout and exit code, the errexit
// exceptions bash makes, $0 and $1... from the command line.

const scratch = scratchDir('script-input-');
afterAll(() => scratch.remove());
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/', LANG: 'C.UTF-8', NO_COLOR: '1' };

function both(script: string, flags: string[], args: string[] = []) {
  const dir = scratch.fresh();
  const file = path.join(dir, 'step.sh');
  fs.writeFileSync(file, script);
  const bash = spawnSync('bash', [...flags, file, ...args], { cwd: dir, env, encoding: 'utf8' });
  return { dir, file, bash: { code: bash.status, stdout: bash.stdout } };
}

const SCRIPTS: Array<[string, string]> = [
  ['false in the middle ends the step', 'echo one\nfalse\necho never\n'],
  [
    'a failing condition is not an error',
    'if false; then echo no; fi\nwhile false; do :; done\necho went on\n',
  ],
  [
    'only the last command of && || counts',
    'false && echo no\nfalse || echo rescued\ntrue && false\necho never\n',
  ],
  ['! exempts a pipeline', '! true\necho after\n'],
  ['a function inherits errexit', 'f() { echo in; false; echo never; }\nf\necho never either\n'],
  ['set +e turns it off', 'set +e\nfalse\necho goes on\n'],
  ['a failing pipeline under pipefail', 'set -o pipefail\nfalse | cat\necho never\n'],
  [
    'continuations and comments',
    'echo a \\\n  b # a comment\n# a line of comment\necho "$0" | grep -c step.sh\n',
  ],
];

describe('--script FILE with -e, against bash -e FILE', () => {
  it.each(SCRIPTS)('%s', async (_what, script) => {
    const { dir, file, bash } = both(script, ['-e']);
    const ours = await runCli(['--no-facts', '-q', '-e', '--script', file], { cwd: dir, env });
    expect({ code: ours.code, stdout: ours.stdout }).toEqual(bash);
  });

  it('gives $0 and $1... as bash FILE ARGS does', async () => {
    const script = 'echo "$# [$1] [$2]"\nshift\necho "$*"\n';
    const { dir, file, bash } = both(script, [], ['a b', 'c']);
    const ours = await runCli(['--no-facts', '-q', '--script', file, '--', 'a b', 'c'], { cwd: dir, env });
    expect({ code: ours.code, stdout: ours.stdout }).toEqual(bash);
  });

  it('reads - from stdin, and says which step set -e ended the text at', async () => {
    const dir = scratch.fresh();
    const result = await runCli(['--no-facts', '--json', '-e', '--script', '-'], {
      cwd: dir,
      env,
      input: 'echo one\nfalse\necho never\n',
    });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.verdict.reason).toBe('errexit (set -e): "false" at line 2 failed with status 1');
    expect(report.steps!.map((step) => [step.text, step.skippedBecause ?? null])).toEqual([
      ['echo one', null],
      ['false', null],
      ['echo never', 'errexit'],
    ]);
  });

  it('refuses -e for a command or a spec, and a script it cannot read, before anything runs', async () => {
    const dir = scratch.fresh();
    const argv = await runCli(['--no-facts', '-e', '--', 'touch', 'ran'], { cwd: dir, env });
    expect(argv.code).toBe(125);
    expect(argv.stderr).toContain('-e applies to -c text and --script only');
    const missing = await runCli(['--no-facts', '--script', path.join(dir, 'nope.sh')], { cwd: dir, env });
    expect(missing.code).toBe(125);
    expect(missing.stderr).toMatch(/--script .*nope\.sh: cannot read it \(ENOENT\)/);
    expect(fs.existsSync(path.join(dir, 'ran'))).toBe(false);
  });

  it('shows the script as the step of a --fallback bash run that has arguments', async () => {
    const script = 'coproc cat\necho "$1-$2"\n';
    const { dir, file, bash } = both(script, [], ['one', 'two']);
    const result = await runCli(
      ['--no-facts', '--json', '--fallback', 'bash', '--script', file, '--', 'one', 'two'],
      {
        cwd: dir,
        env,
      },
    );
    const report = JSON.parse(result.stdout) as Report;
    expect(report.stages[0]!.stdout.text).toBe(bash.stdout);
    expect(report.steps!.map((step) => step.text)).toEqual([script]);
  });
});
