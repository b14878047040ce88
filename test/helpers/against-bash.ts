import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { Report } from '../../src/types.js';
import { runCli } from './cli.js';

// One -c text run both ways, in the same directory and environment: by `bash -o pipefail -c` and by
// `safe-run --json -c`. What the text printed under safe-run is every stage's captured stdout, in order
// (a piped stage's is empty), which is what reached bash's stdout.
export async function againstBash(
  text: string,
  options: { cwd?: string; env: Record<string, string> },
): Promise<{
  bash: { code: number | null; stdout: string };
  ours: { code: number | null; stdout: string };
  report: Report;
}> {
  // NO_COLOR as safe-run gets it from runCli (the interpreter passes it on).
  const env = { ...options.env, NO_COLOR: '1' };
  const bash = spawnSync('bash', ['--norc', '-o', 'pipefail', '-c', text], {
    ...options,
    env,
    encoding: 'utf8',
  });
  const result = await runCli(['--no-facts', '--json', '-c', text], options);
  const report = JSON.parse(result.stdout) as Report;
  const stdout = report.stages.map((stage) => stage.stdout.text).join('');
  return { bash: { code: bash.status, stdout: bash.stdout }, ours: { code: result.code, stdout }, report };
}

// bash -o pipefail and `safe-run -q` on the same text, each in a fresh directory under `root`: their
// real stdout and exit code (safe-run's table goes to stderr). bash runs in a session of its own:
// `kill 0` in a text signals bash's process group, never the tests'.
export async function stdoutBothWays(
  text: string,
  root: string,
  env: Record<string, string>,
): Promise<{ bash: { code: number | null; stdout: string }; ours: { code: number | null; stdout: string } }> {
  const dir = () => fs.mkdtempSync(path.join(root, 'case-'));
  const bash = spawnSync('setsid', ['-w', 'bash', '--norc', '-o', 'pipefail', '-c', text], {
    cwd: dir(),
    env: { ...env, NO_COLOR: '1' },
    encoding: 'utf8',
  });
  const ours = await runCli(['--no-facts', '-q', '-c', text], { cwd: dir(), env });
  return { bash: { code: bash.status, stdout: bash.stdout }, ours: { code: ours.code, stdout: ours.stdout } };
}

// `text` both ways, in fresh directories under `root`: bash's stdout must be `expected` (a machine
// whose bash does otherwise fails the row instead of passing it), and safe-run's stdout and exit
// code bash's.
export async function expectSameAsBash(
  text: string,
  expected: string,
  root: string,
  env: Record<string, string>,
): Promise<void> {
  const { bash, ours } = await stdoutBothWays(text, root, env);
  expect(bash.stdout).toBe(expected);
  expect(ours).toEqual(bash);
}
