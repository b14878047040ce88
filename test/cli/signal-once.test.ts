import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, FIXTURES, waitFor } from '../helpers/index.js';

const COUNTER = path.join(FIXTURES, 'signals', 'count-signals.mjs');
const OUTLIVER = path.join(FIXTURES, 'signals', 'outlive-stage.mjs');
let dir = '';

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-signals-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

// Runs a two-stage pipeline of signal counters, sends `signal` to safe-run once both are ready, and
// returns what each stage received.
async function signalsReceived(signal: NodeJS.Signals): Promise<{ code: number | null; got: string[][] }> {
  const files = ['a', 'b'].map((name) => path.join(dir, name));
  const stage = (file: string) => `${process.execPath} ${COUNTER} ${file}`;
  return signalRun(['--kill-after', '60s', '-c', `${stage(files[0]!)} | ${stage(files[1]!)}`], files, signal);
}

// Runs safe-run with `args`, sends it `signal` once every file's .ready exists, and returns what each
// file recorded.
async function signalRun(
  args: string[],
  files: string[],
  signal: NodeJS.Signals,
): Promise<{ code: number | null; got: string[][] }> {
  const child = spawn(process.execPath, [BIN, '--no-facts', ...args], { stdio: 'ignore' });
  const done = new Promise<number | null>((resolve) => child.on('close', resolve));
  await waitFor('every process ready', () => files.every((file) => fs.existsSync(`${file}.ready`)), 30_000);
  child.kill(signal);
  const code = await done;
  const got = files.map((file) =>
    fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [],
  );
  return { code, got };
}

describe('a signal to safe-run', () => {
  it('reaches each stage process exactly once (SIGINT)', async () => {
    const { code, got } = await signalsReceived('SIGINT');
    expect(got).toEqual([['SIGINT'], ['SIGINT']]);
    expect(code).toBe(130);
  });

  it('reaches each stage process exactly once (SIGTERM)', async () => {
    const { code, got } = await signalsReceived('SIGTERM');
    expect(got).toEqual([['SIGTERM'], ['SIGTERM']]);
    expect(code).toBe(143);
  });

  // A process leaves the stage (setsid) and outlives it: safe-run deals with it after the stage's end,
  // when the drain timeout is over if it keeps the stage's output pipes, else at the end of the run.
  // It never exits by itself, so it is still there then, with the grace before its SIGKILL to record
  // a second signal if one were sent.
  it.each([
    { signal: 'SIGINT', exit: 130, escape: 'keeps the stage pipes', redirect: '' },
    { signal: 'SIGTERM', exit: 143, escape: 'lets go of them', redirect: ' >/dev/null 2>&1' },
  ] as const)(
    'reaches a process that left its stage exactly once, though it outlives the stage ($signal; it $escape)',
    async ({ signal, exit, redirect }) => {
      const [stage, escaped] = ['stage', 'escaped'].map((name) => path.join(dir, name)) as [string, string];
      const node = process.execPath;
      const script = `setsid ${node} ${OUTLIVER} ${escaped}${redirect} & exec ${node} ${COUNTER} ${stage}`;
      const args = ['--kill-after', '2s', '--drain-timeout', '100ms', '--', 'sh', '-c', script];
      const { code, got } = await signalRun(args, [stage, escaped], signal);
      expect(got).toEqual([[signal], [signal]]);
      expect(code).toBe(exit);
    },
  );
});
