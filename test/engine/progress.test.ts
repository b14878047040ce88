// RunHandle.progress(): a read-only view of the running stages, for the live view and the heartbeat.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startRun } from '../../src/engine/run-pipeline.js';
import { pipelinePlan, waitFor } from '../helpers/index.js';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-progress-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe('RunHandle.progress()', () => {
  it('shows each stage running with its bytes and masked last line, then exited', async () => {
    const go = path.join(scratch, 'go');
    process.env.SR_PROGRESS_TOKEN = 'progress-secret-value';
    const plan = pipelinePlan(
      `sh -c 'echo "token $SR_PROGRESS_TOKEN" >&2; echo one; while [ ! -e ${go} ]; do sleep 0.05; done' | cat`,
      { facts: null },
    );
    const handle = startRun(plan, { stdout: null, stderr: null });
    await waitFor('the first line through cat', () => handle.progress()[1]?.stdoutBytes === 4, 30_000);
    const [first, second] = handle.progress();
    expect(first).toMatchObject({ index: 1, name: 'sh', state: 'running', stdoutBytes: null });
    expect(first!.stderrBytes).toBe('token progress-secret-value\n'.length);
    expect(first!.lastLine).toBe('token ***');
    expect(second).toMatchObject({
      index: 2,
      name: 'cat',
      state: 'running',
      stderrBytes: 0,
      lastLine: 'one',
    });
    expect(first!.pid).toBeGreaterThan(0);
    fs.writeFileSync(go, '');
    const report = await handle.report;
    delete process.env.SR_PROGRESS_TOKEN;
    expect(report.ok).toBe(true);
    expect(handle.progress().map((stage) => stage.state)).toEqual(['exited', 'exited']);
  });
});
