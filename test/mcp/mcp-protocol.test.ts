import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/poll.js';
import {
  INITIALIZE,
  type McpSession,
  markedProcesses,
  scratchDir,
  startRaw,
  startSession,
} from './mcp-client.js';

// The protocol side: JSON-RPC errors for what is not a request, call fields checked as the CLI checks
// its flags (a clear error, nothing run), a client that goes away taking its calls with it.

let session: McpSession;
let dir: string;

beforeAll(async () => {
  dir = scratchDir('safe-run-mcp-protocol-');
  session = await startSession(dir);
});

afterAll(async () => {
  await session?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('JSON-RPC on stdio', () => {
  it('answers a line that is not JSON with -32700 and one that is not JSON-RPC with -32600, and goes on', async () => {
    const raw = startRaw(dir);
    try {
      raw.send('{"jsonrpc": "2.0", "id": 1, "method": ');
      expect(await raw.next()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
      raw.send('{"id": 7, "hello": "world"}');
      expect(await raw.next()).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32600 } });
      raw.send(INITIALIZE);
      expect(await raw.next()).toMatchObject({ id: 0, result: { serverInfo: { name: 'safe-run' } } });
    } finally {
      raw.child.stdin!.end();
      await raw.exited;
    }
  });

  it('stops the calls of a client that closes stdin: their processes are gone and the server ends', async () => {
    const raw = startRaw(dir);
    const mark = `closed-${process.pid}-${Date.now()}`;
    raw.send(INITIALIZE);
    await raw.next();
    raw.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    const run = (id: number, command: string, extra: Record<string, unknown> = {}) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'run', arguments: { command, env: { SR_TEST_MARK: mark }, timeout: 300, ...extra } },
      });
    raw.send(run(1, 'sleep 300'));
    raw.send(run(2, 'sleep 301', { background: true }));
    await waitFor('both sleeps to start', () => markedProcesses('SR_TEST_MARK', mark).length === 2);
    raw.child.stdin!.end();
    expect(await raw.exited).toBe(0);
    expect(markedProcesses('SR_TEST_MARK', mark)).toEqual([]);
  });
});

describe('the fields of a run call', () => {
  it('refuses a timeout past what a timer can wait, with the longest one allowed, and runs nothing', async () => {
    for (const timeout of [3e6, 1e308]) {
      const result = await session.call('run', { command: 'touch ran', timeout });
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(
        /^nothing was run: "timeout": .* seconds is too long; the longest is 2147483 /,
      );
    }
    const negative = await session.call('run', { command: 'touch ran', timeout: -1 });
    expect(negative.text).toBe(
      'nothing was run: "timeout": -1 is not a duration; give seconds (30, 2.5), or 0 for no limit',
    );
    expect(fs.existsSync(path.join(dir, 'ran'))).toBe(false);
  });

  it('reads a tiny timeout as a tiny limit, not as none', async () => {
    const result = await session.call('run', { command: 'sleep 5', timeout: 0.0001, report: 'full' });
    expect(result.structured.exitCode).toBe(124);
    expect((result.structured.report as { settings: { timeoutMs: number } }).settings.timeoutMs).toBe(1);
  });

  it('refuses env names that are not variable names', async () => {
    for (const name of ['', 'A=B', '1X']) {
      const result = await session.call('run', { command: 'true', env: { [name]: 'x' } });
      expect(result.isError).toBe(true);
      expect(result.text).toBe(
        `nothing was run: "env": ${JSON.stringify(name)} is not a variable name (letters, digits and _, not starting with a digit)`,
      );
    }
  });

  it('leaves a removed directory with cd, as bash does', async () => {
    const gone = path.join(dir, 'gone');
    await session.call('run', { command: `mkdir -p ${gone} && cd ${gone} && rmdir ${gone}` });
    const out = await session.call('run', { command: `cd ${dir} && pwd` });
    expect(out.isError).toBe(false);
    expect(out.structured.cwd).toBe(dir);
    expect(out.text).toContain(`--- output ---\n${dir}\n`);
  });

  it('gives the compact report without the stage texts, and the full report on request', async () => {
    const compact = await session.call('run', { command: 'seq 1 3000' });
    const stages = compact.structured.stages as { stdout: Record<string, unknown> }[];
    expect(stages[0]!.stdout).toEqual({ bytes: 13893 });
    expect(compact.structured.report).toBeUndefined();
    // Leaner than the text it comes with, which holds the output.
    expect(JSON.stringify(compact.structured).length).toBeLessThan(compact.text.length);
    const full = await session.call('run', { command: 'seq 1 3', report: 'full' });
    expect(
      (full.structured.report as { stages: { stdout: { text: string } }[] }).stages[0]!.stdout.text,
    ).toBe('1\n2\n3\n');
  });

  it('runs calls that cannot change the session side by side', async () => {
    // The first waits for a file only the second makes: one after the other, it would wait 60 s and fail.
    const [waiter] = await Promise.all([
      session.call('run', {
        command: "timeout 60 sh -c 'until [ -e flag ]; do sleep 0.05; done; echo saw the flag'",
      }),
      session.call('run', { command: 'touch flag' }),
    ]);
    expect(waiter.isError).toBe(false);
    expect(waiter.text).toContain('saw the flag');
  });
});
