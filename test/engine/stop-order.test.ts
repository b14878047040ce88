import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/types.js';
import { runCli } from '../helpers/cli.js';
import { waitFor } from '../helpers/poll.js';

// The stage's shell and a process that left its session both note the SIGTERM they get, in order.
const SCRIPT = `
f=$1
setsid sh -c 'trap "echo escaped >> $0; exit 0" TERM; echo ready >> $0; while :; do sleep 1; done' "$f" &
trap 'echo group >> "$f"; exit 0' TERM
echo armed >> "$f"
while :; do sleep 1; done
`;

describe('the order of a stop', () => {
  it('signals the stage groups first, then looks at the processes that left them, then signals those', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-order-'));
    const file = path.join(dir, 'log');
    const lines = () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n') : []);
    let pid = -1;
    const done = runCli(['--json', '--', 'sh', '-c', SCRIPT, 'sh', file], { onStart: (p) => (pid = p) });
    await waitFor(
      'the stage and the escaped process to be ready',
      () => lines().includes('ready') && lines().includes('armed'),
    );
    process.kill(pid, 'SIGTERM');
    const result = await done;
    expect(result.code).toBe(143);
    const order = lines().filter((line) => line === 'group' || line === 'escaped');
    expect(order).toEqual(['group', 'escaped']);
    // The escaped process was looked at before its signal: it was still there, looping.
    const snapshot = (JSON.parse(result.stdout) as Report).stages[0]!.stop!.snapshot;
    const escaped = snapshot.find((entry) => entry.command.startsWith('sh -c trap'));
    expect(escaped?.state).not.toBe('Z');
    expect(escaped?.explanation).not.toMatch(/^exited/);
  }, 60_000);
});
