import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, runJson } from '../helpers/cli.js';
import { waitFor } from '../helpers/poll.js';

// A prompt printed without a newline is shown while it waits, not after the stage ended.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-prompt-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

// How long a line may be held before it is shown, as the issue asks of a prompt.
const SHOWN_WITHIN_MS = 2000;

async function promptShownIn(env: Record<string, string>, command: string, expected: RegExp): Promise<void> {
  const printed = path.join(root, `printed-${Math.random().toString(36).slice(2)}`);
  const child = spawn(
    process.execPath,
    [BIN, '--no-facts', '--timeout', '60s', '--kill-after', '0', '-c', command],
    {
      env: { ...process.env, NO_COLOR: '1', PRINTED: printed, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  try {
    // The stage touches PRINTED right after it printed the prompt: the clock starts there.
    await waitFor('the stage to print its prompt', () => fs.existsSync(printed));
    await waitFor('the prompt on stderr', () => expected.test(stderr), SHOWN_WITHIN_MS);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('close', resolve));
  }
}

const STAGE = `sh -c 'printf "Password: " >&2; touch "$PRINTED"; sleep 30'`;

describe('a prompt without a newline', () => {
  it('is visible within 2 s with timestamps on (CI=true)', async () => {
    await promptShownIn({ CI: 'true' }, STAGE, /^\d\d:\d\d:\d\d\.\d{3} Password: $/m);
  });

  it('is visible within 2 s among several stages, with its prefix', async () => {
    await promptShownIn({}, `${STAGE} | cat`, /^\[sh\] Password: $/m);
  });

  it('is visible within 2 s in a GitHub step, at the start of its line', async () => {
    await promptShownIn({ CI: 'true', GITHUB_ACTIONS: 'true' }, `${STAGE} | cat`, /^\[sh\]\nPassword: $/m);
  });
});

describe('--prompt-wait in CI', () => {
  it('is 30s when CI=true, and the environment or a flag can change it', async () => {
    const ci = await runJson(['--', 'true'], { env: { CI: 'true' } });
    expect(ci.report.settings.promptWaitMs).toBe(30_000);
    const off = await runJson(['--', 'true'], { env: { CI: 'true', SAFE_RUN_OPTIONS: '--prompt-wait 0' } });
    expect(off.report.settings.promptWaitMs).toBeNull();
    const plain = await runJson(['--', 'true']);
    expect(plain.report.settings.promptWaitMs).toBeNull();
  });
});
