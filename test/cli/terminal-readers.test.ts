// Programs that ask the terminal itself (/dev/tty), not their stdin: in a terminal, inspect gives the
// advice that works for them; under safe-run a stage has no controlling terminal, so they fail at once
// instead of asking (docs/debugging-hangs.md).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { commandOf, descendants, killAll, wchanOf } from '../hang/helpers.js';
import { BIN, runCli, waitFor } from '../helpers/index.js';

const has = (program: string) => spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-tty-'));
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

// git with no credential helper and nothing that stops it from asking: an empty home, no system
// config, GIT_TERMINAL_PROMPT unset (safe-run's --agent sets it; the test's environment might).
const gitEnv = {
  ...process.env,
  HOME: home,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_TERMINAL_PROMPT: undefined,
  GIT_ASKPASS: undefined,
  SSH_ASKPASS: undefined,
  NO_COLOR: '1',
};
const ASK = `printf 'protocol=https\\nhost=example.com\\n\\n' | git credential fill`;

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) killAll([...descendants(child.pid!), child.pid!]);
});

// `script` gives the command a terminal; script's own stdin is a pipe the test never closes.
function inPty(command: string): { child: ChildProcess; shown: () => string } {
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    cwd: home,
    env: gitEnv,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  started.push(child);
  let shown = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    shown += chunk.toString('utf8');
  });
  return { child, shown: () => shown };
}

describe.skipIf(!has('git') || !has('script'))('a program that asks the terminal itself', () => {
  it('git asking for credentials in a terminal is told to run with GIT_TERMINAL_PROMPT=0', async () => {
    const { child } = inPty(ASK);
    const git = await waitFor(
      'git to ask on the terminal',
      () =>
        descendants(child.pid!).find(
          (pid) => commandOf(pid) === 'git credential fill' && /tty|wait_woken/.test(wchanOf(pid)),
        ),
      40_000,
    );
    const inspected = await runCli(['inspect', String(git)], { deadlineMs: 40_000 });
    expect(inspected.stdout).toMatch(
      /`git credential fill`: waiting for an answer from the terminal it opened itself \(fd \d+, \/dev\/tty\), not from its stdin: run it with GIT_TERMINAL_PROMPT=0 /,
    );
    expect(inspected.stdout).not.toContain('--stdin');
  }, 60_000);

  it('under safe-run, in a terminal, the stage has no controlling terminal: git fails at once instead of asking', async () => {
    const run = inPty(`'${process.execPath}' '${BIN}' --no-facts -c "${ASK}"`);
    // Were the terminal the stage's, git would ask and wait here until the test's own limit.
    const code = await new Promise<number | null>((resolve) => run.child.on('close', resolve));
    expect(run.shown()).toContain(
      "fatal: could not read Username for 'https://example.com': No such device or address",
    );
    expect(run.shown()).not.toMatch(/^Username for /m);
    expect(code).toBe(128);
  }, 60_000);
});
