import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Report } from '../../src/types.js';
import { BIN, runCli, waitFor } from '../helpers/index.js';

let dir = '';
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-waits-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function fifo(name: string): string {
  const file = path.join(dir, name);
  execFileSync('mkfifo', [file]);
  return file;
}

// True while some thread of the process sleeps in a FIFO open waiting for the other end.
function waitingForPartner(pid: number): boolean {
  try {
    return fs
      .readdirSync(`/proc/${pid}/task`)
      .some((tid) => fs.readFileSync(`/proc/${pid}/task/${tid}/wchan`, 'utf8').includes('partner'));
  } catch {
    return false;
  }
}

function start(args: string[]) {
  const child = spawn(process.execPath, [BIN, '--no-facts', ...args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stdout.resume();
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const done = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    }),
  );
  return { pid: child.pid!, done };
}

describe('--report on a FIFO', () => {
  it('without a reader, gives up within --timeout with a warning', async () => {
    const report = fifo('r.fifo');
    const result = await runCli(['--no-facts', '--timeout', '1s', '--report', report, '--', 'echo', 'hi'], {
      cwd: dir,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /warning: --report .*r\.fifo could not be written \(no reader came within 1\.00s\)/,
    );
  });

  it('without a reader, SIGTERM ends the wait with a message', async () => {
    const report = fifo('r.fifo');
    const run = start(['--report', report, '--', 'echo', 'hi']);
    await waitFor('safe-run to wait for a reader', () => waitingForPartner(run.pid), 20_000);
    process.kill(run.pid, 'SIGTERM');
    const { stderr } = await run.done;
    expect(stderr).toMatch(/could not be written \(safe-run received SIGTERM\)/);
  });

  it('with a reader, delivers the whole report', async () => {
    const report = fifo('r.fifo');
    const reader = spawn('cat', [report], { stdio: ['ignore', 'pipe', 'inherit'] });
    const chunks: Buffer[] = [];
    reader.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    const read = new Promise((resolve) => reader.on('close', resolve));
    const result = await runCli(['--no-facts', '--report', report, '--', 'echo', 'hi'], { cwd: dir });
    await read;
    expect(result.code).toBe(0);
    expect((JSON.parse(Buffer.concat(chunks).toString()) as Report).stages[0]!.argv).toEqual(['echo', 'hi']);
  });
});

describe('--report on a regular file', () => {
  it('keeps an existing file mode and leaves no temporary file', async () => {
    const report = path.join(dir, 'r.json');
    fs.writeFileSync(report, '{}');
    fs.chmodSync(report, 0o600);
    const result = await runCli(['--no-facts', '--report', report, '--', 'echo', 'hi'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(fs.statSync(report).mode & 0o777).toBe(0o600);
    expect((JSON.parse(fs.readFileSync(report, 'utf8')) as Report).ok).toBe(true);
    expect(fs.readdirSync(dir)).toEqual(['r.json']);
  });
});

describe('-f on a FIFO or a device', () => {
  it('without a writer, gives up within --timeout with a 125', async () => {
    const spec = fifo('s.fifo');
    const result = await runCli(['--no-facts', '--timeout', '1s', '-f', spec], { cwd: dir });
    expect(result.code).toBe(125);
    expect(result.stderr).toBe(`safe-run: ${spec}: no writer came within 1.00s; nothing was started\n`);
  });

  it('without a writer, SIGTERM ends the wait with a message and 143', async () => {
    const spec = fifo('s.fifo');
    const run = start(['-f', spec]);
    await waitFor('safe-run to wait for a writer', () => waitingForPartner(run.pid), 20_000);
    process.kill(run.pid, 'SIGTERM');
    const { code, stderr } = await run.done;
    expect(code).toBe(143);
    expect(stderr).toBe(`safe-run: stopped by SIGTERM while reading the spec ${spec}; nothing was started\n`);
  });

  it('with a writer, reads the spec', async () => {
    const spec = fifo('s.fifo');
    const writer = spawn('sh', [
      '-c',
      `printf 'version: 1\\nstages:\\n  - run: echo via-fifo\\n' > '${spec}'`,
    ]);
    const result = await runCli(['--no-facts', '-f', spec], { cwd: dir });
    writer.kill();
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('via-fifo\n');
  });

  it('/dev/zero is refused at the size limit', async () => {
    const result = await runCli(['--no-facts', '-f', '/dev/zero'], { cwd: dir });
    expect(result.code).toBe(125);
    expect(result.stderr).toBe('safe-run: /dev/zero: more than 1.0 MiB; a spec file is at most 1.0 MiB\n');
  });

  it('a regular file over the size limit is refused before it is read', async () => {
    const spec = path.join(dir, 'big.yaml');
    fs.writeFileSync(spec, `# ${'x'.repeat(4 * 1024 * 1024)}\n`);
    const result = await runCli(['--no-facts', '-f', spec], { cwd: dir });
    expect(result.code).toBe(125);
    expect(result.stderr).toMatch(/big\.yaml: more than 1\.0 MiB/);
  });
});

describe('--facts on a FIFO', () => {
  it('is refused before anything starts, instead of blocking in open', async () => {
    const ledger = fifo('f.fifo');
    const result = await runCli(['--facts', ledger, '--', 'echo', 'hi'], { cwd: dir, deadlineMs: 20_000 });
    expect(result.code).toBe(125);
    expect(result.stderr).toBe(
      `safe-run: facts ledger ${ledger}: a FIFO, not a file; name a file with --facts FILE, or use --no-facts\n`,
    );
  });
});
