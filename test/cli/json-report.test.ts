import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, runJson, validate } from '../helpers/index.js';

const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs/schema/report.schema.json'), 'utf8'));

describe('the JSON report', () => {
  const pipelines = [
    "printf 'a\\nb\\n' | grep b | wc -l",
    "sh -c 'echo oops >&2; exit 3' | cat",
    'yes | head -n1',
    'no-such-program-xyz | cat',
  ];
  for (const pipeline of pipelines) {
    it(`conforms to the published schema for: ${pipeline}`, async () => {
      const { report } = await runJson(['-c', pipeline]);
      expect(validate(report, schema)).toEqual([]);
    });
  }

  it('streams nothing in --json mode: stdout holds only the document', async () => {
    const { result, report } = await runJson(['-c', "sh -c 'echo out; echo err >&2'"]);
    expect(result.stderr).toBe('');
    expect(report.stages[0]!.stdout.text).toBe('out\n');
    expect(report.stages[0]!.stderr.text).toBe('err\n');
  });

  it('writes the same document to --report FILE while streaming as usual', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-report-'));
    const file = path.join(dir, 'report.json');
    const result = await runCli(['--no-facts', '--report', file, '-c', "sh -c 'echo out; exit 4'"]);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('out\n');
    const report = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(report.exitCode).toBe(4);
    expect(validate(report, schema)).toEqual([]);
    expect(fs.readdirSync(dir)).toEqual(['report.json']);
    fs.rmSync(dir, { recursive: true });
  });

  it('prefixes each stderr line with its stage name when there are several stages', async () => {
    const result = await runCli([
      '--no-facts',
      '-c',
      "sh -c 'echo one >&2; echo two >&2' | sh -c 'cat; echo three >&2'",
    ]);
    const lines = result.stderr.split('\n');
    expect(lines).toContain('[sh] one');
    expect(lines).toContain('[sh] two');
    expect(lines).toContain('[sh-2] three');
  });

  it('prints the table only on failure with --quiet', async () => {
    const ok = await runCli(['--no-facts', '-q', '--', 'true']);
    expect(ok.stderr).toBe('');
    const failed = await runCli(['--no-facts', '-q', '--', 'false']);
    expect(failed.stderr).toMatch(/not ok, exit 1/);
  });
});
