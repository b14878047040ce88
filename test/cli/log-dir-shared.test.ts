import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/types.js';
import { runJson } from '../helpers/cli.js';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-log-shared-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe('runs sharing one --log-dir', () => {
  it('each keep their own files: no run writes over another run of the same pipeline', async () => {
    const logDir = path.join(scratch, 'logs');
    const runs = 6;
    const results = await Promise.all(
      Array.from({ length: runs }, (_, i) =>
        runJson(['--log-dir', logDir, '--', 'sh', '-c', `echo out-${i}; echo err-${i} >&2`], {
          deadlineMs: 60_000,
        }),
      ),
    );
    const stages = results.map(({ report }) => report.stages[0] as Report['stages'][0]);
    const files = stages.flatMap((stage) => [stage.stdout.logFile, stage.stderr.logFile]);
    expect(new Set(files).size).toBe(runs * 2);
    expect(fs.readdirSync(logDir)).toHaveLength(runs * 2);
    for (const [i, stage] of stages.entries()) {
      expect(fs.readFileSync(stage.stdout.logFile!, 'utf8')).toBe(`out-${i}\n`);
      expect(fs.readFileSync(stage.stderr.logFile!, 'utf8')).toBe(`err-${i}\n`);
    }
  });
});
