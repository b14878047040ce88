import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, FIXTURES, waitFor } from '../helpers/index.js';

const COUNTER = path.join(FIXTURES, 'signals', 'count-signals.mjs');
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
  const child = spawn(
    process.execPath,
    [BIN, '--no-facts', '--kill-after', '60s', '-c', `${stage(files[0]!)} | ${stage(files[1]!)}`],
    { stdio: 'ignore' },
  );
  const done = new Promise<number | null>((resolve) => child.on('close', resolve));
  await waitFor('both stages ready', () => files.every((file) => fs.existsSync(`${file}.ready`)), 30_000);
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
});
