import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runCli, runJson } from '../helpers/index.js';

describe('masking the report', () => {
  it('masks a secret typed on the command line in argv and in the table', async () => {
    const env = { API_TOKEN: 's3cr3t-value-42' };
    const { report } = await runJson(['--', 'sh', '-c', 'echo "Bearer s3cr3t-value-42" >/dev/null'], { env });
    expect(report.stages[0]!.argv[2]).toBe('echo "Bearer ***" >/dev/null');
    const table = await runCli(['--no-facts', '--', 'sh', '-c', 'exit 0 # s3cr3t-value-42'], { env });
    expect(table.stderr).not.toContain('s3cr3t-value-42');
  });

  it('never changes keys, numbers or statuses, whatever the masked value', async () => {
    for (const value of ['exitCode', 'ok', 'e', 'failed', 'pipefail']) {
      const { result, report } = await runJson(['--mask', 'FOO', '--', 'false'], { env: { FOO: value } });
      expect(result.code).toBe(1);
      expect(report.exitCode).toBe(1);
      expect(report.ok).toBe(false);
      expect(report.policy).toBe('pipefail');
      expect(report.stages[0]!.status).toBe('failed');
      expect(report.settings.policy).toBe('pipefail');
      expect(report.settings.stdin.kind).toBe('inherit');
    }
  });

  it('masks the words inside a stop cause (a question), not its kind', async () => {
    const ask = path.join(FIXTURES, 'agent', 'ask');
    const env = { WHICH_FILE: 'config.json' };
    const args = ['--mask', 'WHICH_FILE', '--prompt-wait', '300ms', '--stdin', 'null', '--', ask];
    const { report } = await runJson(args, { env });
    const stop = report.stages[0]!.stop!;
    expect(stop.cause).toEqual({ kind: 'prompt', line: 'Overwrite ***? [y/N]' });
    expect(stop.reason).toBe('waiting for an answer: Overwrite ***? [y/N]');
  });
});
