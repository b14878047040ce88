import { spawnSync } from 'node:child_process';
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
