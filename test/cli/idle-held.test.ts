import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.js';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-idle-held-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe('--idle-timeout and a slow reader of safe-run', () => {
  it('does not stop a stage that was only waiting for safe-run to read it, and says who waited', async () => {
    const started = path.join(scratch, 'started');
    // The reader of safe-run's stdout starts reading 3 s after the stage started writing: meanwhile
    // the stage is blocked writing into safe-run's pipe, which safe-run stopped reading.
    const line =
      `"${process.execPath}" "${BIN}" --no-facts --idle-timeout 1s -- sh -c 'touch ${started}; exec yes' ` +
      `| (while [ ! -e ${started} ]; do sleep 0.05; done; sleep 3; head -c 2 >/dev/null); ` +
      'echo "status=$PIPESTATUS" >&2';
    const { stderr } = await runCli(['--no-facts', '--', 'bash', '-c', line], { deadlineMs: 60_000 });
    expect(stderr).toContain('status=0');
    expect(stderr).not.toContain('idle timeout (1.00s without output)');
    expect(stderr).toContain(
      'stage 1 "sh" waited more than 1.00s to write because safe-run\'s own output (its reader, or the log\'s disk) was not keeping up; that time did not count toward --idle-timeout',
    );
  });

  it('still stops a stage that is idle on its own account', async () => {
    const { code, stderr } = await runCli(['--no-facts', '--idle-timeout', '500ms', '--', 'sleep', '30'], {
      deadlineMs: 30_000,
    });
    expect(code).toBe(124);
    expect(stderr).toContain('the idle timeout (500ms without output)');
  });
});
