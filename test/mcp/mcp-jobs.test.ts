import fs from 'node:fs';
import path from 'node:path';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/cli.js';
import { waitFor } from '../helpers/poll.js';
import { type McpSession, markedProcesses, scratchDir, startSession } from './mcp-client.js';

// Jobs: a call that goes on after it answered (background, or past its yield time), read, answered and
// killed through the job tools, and gone when killed; progress while a call runs.

let session: McpSession;
const mark = `jobs-${process.pid}-${Date.now()}`;
const env = { SR_TEST_MARK: mark };

beforeAll(async () => {
  session = await startSession(scratchDir('safe-run-mcp-jobs-'));
});

afterAll(async () => {
  await session?.close();
  fs.rmSync(session.dir, { recursive: true, force: true });
});

// Reads a job until `done` holds for everything read so far; returns all of it.
async function readUntil(job: number, done: (text: string) => boolean): Promise<string> {
  let seen = '';
  await waitFor(`job ${job} output`, async () => {
    seen += (await session.call('job_output', { job })).text;
    return done(seen);
  });
  return seen;
}

describe('jobs', () => {
  it('starts a job, reads it while it runs, answers it through job_input, kills it, and leaves no process', async () => {
    const ask = path.join(FIXTURES, 'agent', 'ask-again');
    const started = await session.call('run', { command: ask, background: true, env });
    expect(started.isError).toBe(false);
    const id = (started.structured.job as { id: number }).id;
    expect(started.text).toMatch(new RegExp(`^job ${id} started in `));
    // Quiet after a question: it says so instead of being stopped.
    const asked = await readUntil(id, (text) =>
      text.includes('is waiting for an answer: Step 1: continue? [y/N]'),
    );
    expect(asked).toContain(`job ${id} is running`);
    const answered = await session.call('job_input', { job: id, text: 'y\n' });
    expect(answered.text).toContain(`wrote 2 bytes to job ${id}'s stdin`);
    const after = answered.text + (await readUntil(id, (text) => text.includes('Step 2')));
    expect(after).toContain('got y\nStep 2: continue? [y/N]');
    expect(markedProcesses('SR_TEST_MARK', mark).length).toBeGreaterThan(0);
    const killed = await session.call('job_kill', { job: id });
    expect(killed.text).toMatch(
      new RegExp(`^job ${id} killed: its stages and every process they started are gone`),
    );
    expect(markedProcesses('SR_TEST_MARK', mark)).toEqual([]);
    const listed = await session.call('jobs', {});
    expect(listed.text).toContain(`job ${id} ended after`);
  });

  it('runs a dev server in the background, probed by a later call, and kills it with nothing left', async () => {
    fs.writeFileSync(path.join(session.dir, 'hello.txt'), 'hello from the server\n');
    const started = await session.call('run', {
      command: 'python3 -u -m http.server 0 --bind 127.0.0.1',
      background: true,
      env,
    });
    const id = (started.structured.job as { id: number }).id;
    const serving = await readUntil(id, (text) => /Serving HTTP on 127\.0\.0\.1 port \d+/.test(text));
    const port = /port (\d+)/.exec(serving)![1];
    const probe = await session.call('run', {
      command: `python3 -c "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:${port}/hello.txt').read().decode(), end='')"`,
    });
    expect(probe.isError).toBe(false);
    expect(probe.text).toContain('--- output ---\nhello from the server\n');
    const log = await readUntil(id, (text) => text.includes('GET /hello.txt'));
    expect(log).toMatch(/"GET \/hello\.txt HTTP\/1\.1" 200/);
    const killed = await session.call('job_kill', { job: id });
    expect(killed.text).toContain(`job ${id} killed`);
    // Killed as asked: said so, never as a signal to safe-run, and with nothing to do next.
    expect(killed.text).toContain('stopped with job_kill (SIGTERM); running stages were cancelled');
    expect(killed.text).not.toMatch(/safe-run received|safe-run was stopped by|\nnext: /);
    expect(markedProcesses('SR_TEST_MARK', mark)).toEqual([]);
    const refused = await session.call('run', {
      command: `python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:${port}/')"`,
    });
    expect(refused.text).toContain('Connection refused');
  });

  it("lets a later call's kill PID stop a job's process, the pid job_output shows, and no other", async () => {
    const started = await session.call('run', { command: 'sh -c "sleep 300; :"', background: true, env });
    const id = (started.structured.job as { id: number }).id;
    const status = await readUntil(id, (text) => /pid \d+/.test(text));
    const pid = /pid (\d+)/.exec(status)![1];
    const killed = await session.call('run', { command: `kill ${pid}; echo "kill: $?"` });
    expect(killed.text).toContain('--- output ---\nkill: 0\n');
    const ended = await session.call('job_output', { job: id, wait: 30 });
    expect(ended.text).toContain(`job ${id} ended after`);
    expect(ended.text).toContain('exit 143');
    expect(markedProcesses('SR_TEST_MARK', mark)).toEqual([]);
    // A process below a job's stage is the job's too; one that is no job's is still refused.
    const again = await session.call('run', { command: 'sh -c "sleep 300; :"', background: true, env });
    const second = (again.structured.job as { id: number }).id;
    await waitFor('the job to start its sleep', () => markedProcesses('SR_TEST_MARK', mark).length === 2);
    const sleeper = markedProcesses('SR_TEST_MARK', mark).find((found) =>
      fs.readFileSync(`/proc/${found}/cmdline`, 'utf8').startsWith('sleep'),
    );
    const below = await session.call('run', { command: `kill -9 ${sleeper}` });
    expect(below.isError).toBe(false);
    expect((await session.call('job_output', { job: second, wait: 30 })).text).toContain(
      `job ${second} ended`,
    );
    const other = await session.call('run', { command: `kill -0 ${process.pid}` });
    expect(other.text).toContain('not a process this text started');
  });

  it('says that a server started with & was stopped when the call ended, and leaves nothing running', async () => {
    const result = await session.call('run', {
      command: 'python3 -u -m http.server 0 --bind 127.0.0.1 > server.log 2>&1 &',
      env,
    });
    // bash's status (0), but not silent: the server is gone, and the way to keep one up is named.
    expect(result.isError).toBe(false);
    expect(result.text).toContain('ok, exit 0');
    expect(result.text).toContain(
      'next: stage 1 "python3" ran in the background (&) and was stopped when the text ended',
    );
    expect(result.text).toContain('"background": true');
    expect(result.structured.next).toEqual(expect.stringContaining('ran in the background (&)'));
    expect(markedProcesses('SR_TEST_MARK', mark)).toEqual([]);
  });

  it("keeps a running job's data in a file when it shows only that there was some", async () => {
    const started = await session.call('run', {
      command: 'head -c 500 /dev/urandom; sleep 30',
      background: true,
      env,
    });
    const id = (started.structured.job as { id: number }).id;
    const seen = await readUntil(id, (text) => text.includes('[binary output: 500 bytes'));
    const file = /not shown; it is in (\S+): read a part with run/.exec(seen)?.[1];
    expect(file, seen).toBeDefined();
    // (The file is written asynchronously: the bytes land a moment after the answer.)
    await waitFor('the 500 bytes in the file', () => fs.statSync(file!).size === 500);
    await session.call('job_kill', { job: id });
    expect(markedProcesses('SR_TEST_MARK', mark)).toEqual([]);
  });

  it('turns a call still running at its yield time into a job, which ends on its own', async () => {
    const result = await session.call('run', { command: 'echo start; sleep 2; echo end', yield: 0.5 });
    expect(result.isError).toBe(false);
    const id = (result.structured.job as { id: number }).id;
    expect(result.text).toMatch(
      new RegExp(`--- output so far ---\\nstart\\nstill running after .*: it goes on as job ${id}\\.`),
    );
    const ended = await session.call('job_output', { job: id, wait: 60 });
    expect(ended.text).toMatch(
      new RegExp(`^--- output since the last read ---\\nend\\njob ${id} ended after .*, ok, exit 0`),
    );
    expect(ended.text).toContain('3  echo   ok');
  });

  it('sends progress with the latest output while a 4-second call runs', async () => {
    const seen: Progress[] = [];
    const result = await session.call(
      'run',
      { command: 'echo tick 1; sleep 1; echo tick 2; sleep 1; echo tick 3; sleep 1; echo tick 4; sleep 1' },
      (progress) => seen.push(progress),
    );
    expect(result.isError).toBe(false);
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen[0]!.message).toMatch(/^running for .*; latest:\n(tick \d\n?)+/);
    for (let i = 1; i < seen.length; i += 1) expect(seen[i]!.progress).toBeGreaterThan(seen[i - 1]!.progress);
  });
});
