import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/types.js';
import { BIN, type CliResult, FIXTURES, outputScratch, runCli, runJson, waitFor } from '../helpers/index.js';

const PRODUCE = path.join(FIXTURES, 'output', 'produce-then-wait.sh');
const SLOW_CHECKER = path.join(FIXTURES, 'output', 'slow-checker.sh');
const scratch = outputScratch('safe-run-publish');

// safe-run under a chosen umask, as a shell would start it.
function runUnderUmask(mask: string, args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      '/bin/sh',
      ['-c', `umask ${mask} && exec "$@"`, 'sh', process.execPath, BIN, ...args],
      {
        cwd: scratch.dir,
        env: { ...process.env, NO_COLOR: '1', SAFE_RUN_FACTS: undefined },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const err: Buffer[] = [];
    const stdout: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({
        code,
        signal,
        stdout: Buffer.concat(stdout).toString(),
        stderr: Buffer.concat(err).toString(),
        pid: child.pid ?? -1,
      });
    });
  });
}

// Starts safe-run in the background, for tests that signal it mid-run.
function startCli(args: string[]): { pid: number; done: Promise<{ code: number | null; stdout: string }> } {
  const child = spawn(process.execPath, [BIN, '--no-facts', ...args], {
    cwd: scratch.dir,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stderr.resume();
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const done = new Promise<{ code: number | null; stdout: string }>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(chunks).toString() });
    }),
  );
  return { pid: child.pid!, done };
}

describe('--output FILE is replaced only by a product that passed', () => {
  it('holds exactly the bytes of a few MiB of binary output, with the mode a new file gets', async () => {
    const data = randomBytes(3 * 1024 * 1024 + 17);
    fs.writeFileSync(path.join(scratch.signals, 'data.bin'), data);
    fs.rmSync(scratch.out);
    const result = await runUnderUmask('027', [
      '--no-facts',
      '--output',
      scratch.out,
      '-c',
      `cat ${path.join(scratch.signals, 'data.bin')} | cat`,
    ]);
    expect(result.code).toBe(0);
    expect(fs.readFileSync(scratch.out).equals(data)).toBe(true);
    expect(fs.statSync(scratch.out).mode & 0o777).toBe(0o640);
    expect(scratch.listing()).toEqual(['out.txt']);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^output .*out\.txt: published \(3\.0 MiB\)/m);
  });

  it('keeps the permission bits of an existing FILE (0600 stays 0600)', async () => {
    fs.chmodSync(scratch.out, 0o600);
    const result = await runUnderUmask('022', ['--no-facts', '--output', scratch.out, '--', 'echo', 'new']);
    expect(result.code).toBe(0);
    expect(fs.readFileSync(scratch.out, 'utf8')).toBe('new\n');
    expect(fs.statSync(scratch.out).mode & 0o777).toBe(0o600);
  });

  it('a failing stage leaves FILE untouched and no staged file behind', async () => {
    const { result, report } = await runJson(
      ['--output', scratch.out, '-c', `sh -c "echo partial; exit 3" | cat`],
      {
        cwd: scratch.dir,
      },
    );
    expect(result.code).toBe(3);
    scratch.expectUntouched();
    expect(report.output).toMatchObject({ file: scratch.out, published: false, kept: null, bytes: 8 });
    expect(report.output!.reason).toMatch(/the run did not succeed/);
  });

  it('a timeout leaves FILE untouched', async () => {
    const { result, report } = await runJson(
      ['--output', scratch.out, '--timeout', '300ms', '--', PRODUCE, path.join(scratch.signals, 'started')],
      { cwd: scratch.dir },
    );
    expect(result.code).toBe(124);
    scratch.expectUntouched();
    expect(report.output?.published).toBe(false);
  });

  it('a failed check fails the run with its own line and leaves FILE untouched', async () => {
    const { result, report } = await runJson(
      ['--output', scratch.out, '--expect', 'nonempty', '--expect', 'lines>=3', '-c', 'printf "a\\nb"'],
      { cwd: scratch.dir },
    );
    expect(result.code).toBe(1);
    scratch.expectUntouched();
    expect(report.checks).toEqual([
      { check: 'nonempty', status: 'passed', detail: '3 B', durationMs: expect.any(Number) },
      {
        check: 'lines>=3',
        status: 'failed',
        detail: 'the output has 2 lines',
        durationMs: expect.any(Number),
      },
    ]);
    expect(report.verdict).toMatchObject({ ok: false, exitCode: 1, blamedStage: null });
    expect(report.verdict.reason).toMatch(/^check lines>=3 failed/);
    const table = await runCli(
      ['--no-facts', '--output', scratch.out, '--expect', 'json', '--', 'echo', '{bad'],
      {
        cwd: scratch.dir,
      },
    );
    expect(table.code).toBe(1);
    expect(table.stderr).toMatch(/^check json: failed, not JSON: /m);
    scratch.expectUntouched();
  });

  it('--keep-partial keeps what was produced as FILE.partial', async () => {
    const { result, report } = await runJson(
      ['--output', scratch.out, '--keep-partial', '--expect', 'json', '--', 'echo', 'not json'],
      { cwd: scratch.dir },
    );
    expect(result.code).toBe(1);
    expect(fs.readFileSync(scratch.out, 'utf8')).toBe('old content\n');
    expect(fs.readFileSync(`${scratch.out}.partial`, 'utf8')).toBe('not json\n');
    expect(scratch.listing()).toEqual(['out.txt', 'out.txt.partial']);
    expect(report.output?.kept).toBe(`${scratch.out}.partial`);
  });

  it('SIGINT during the run leaves FILE untouched and removes the staged file', async () => {
    const started = path.join(scratch.signals, 'started');
    const run = startCli(['--json', '--output', scratch.out, '--', PRODUCE, started]);
    await waitFor('the stage to start', () => fs.existsSync(started), 20_000);
    process.kill(run.pid, 'SIGINT');
    const { code, stdout } = await run.done;
    expect(code).toBe(130);
    scratch.expectUntouched();
    const report = JSON.parse(stdout) as Report;
    expect(report.output).toMatchObject({ published: false, bytes: 16 });
  });

  it('SIGKILL of safe-run during the run: the watchdog removes the staged file', async () => {
    const started = path.join(scratch.signals, 'started');
    const run = startCli(['--output', scratch.out, '--', PRODUCE, started]);
    await waitFor('the stage to start', () => fs.existsSync(started), 20_000);
    expect(scratch.listing().some((name) => name.endsWith('.staged'))).toBe(true);
    process.kill(run.pid, 'SIGKILL');
    expect((await run.done).code).toBe(null);
    await waitFor('the staged file to be removed', () => scratch.listing().length === 1, 20_000);
    scratch.expectUntouched();
  });
});

describe('--expect-cmd', () => {
  it('a checker gets the staged file in place of {} and its exit status decides', async () => {
    const pass = await runJson(
      ['--output', scratch.out, '--expect-cmd', 'grep -q hello {}', '--', 'echo', 'hello'],
      {
        cwd: scratch.dir,
      },
    );
    expect(pass.result.code).toBe(0);
    expect(fs.readFileSync(scratch.out, 'utf8')).toBe('hello\n');
    expect(pass.report.checks).toMatchObject([{ check: 'cmd: grep -q hello {}', status: 'passed' }]);
    const fail = await runJson(
      ['--output', scratch.out, '--expect-cmd', 'grep -q absent', '--', 'echo', 'other'],
      {
        cwd: scratch.dir,
      },
    );
    expect(fail.result.code).toBe(1);
    expect(fail.report.checks).toMatchObject([{ status: 'failed', detail: 'the checker exited 1' }]);
    expect(fs.readFileSync(scratch.out, 'utf8')).toBe('hello\n');
  });

  it("masks secrets in a checker's quoted last line", async () => {
    const { report, result } = await runJson(
      ['--output', scratch.out, '--expect-cmd', "sh -c 'echo token=$API_TOKEN; exit 1'", '--', 'echo', 'x'],
      { cwd: scratch.dir, env: { API_TOKEN: 'not-for-your-eyes-4711' } },
    );
    expect(result.code).toBe(1);
    expect(report.checks[0]!.detail).toBe('the checker exited 1; its last line: "token=***"');
    expect(result.stdout).not.toContain('not-for-your-eyes-4711');
  });

  it('a checker that does not finish is stopped by what is left of --timeout', async () => {
    const started = path.join(scratch.signals, 'checker');
    const { result, report } = await runJson(
      [
        '--output',
        scratch.out,
        '--timeout',
        '3s',
        '--expect-cmd',
        `${SLOW_CHECKER} ${started}`,
        '--',
        'echo',
        'x',
      ],
      { cwd: scratch.dir },
    );
    expect(result.code).toBe(1);
    expect(report.checks[0]!.detail).toMatch(/^the checker was stopped by its time limit/);
    scratch.expectUntouched();
  });

  it('SIGINT while a checker runs stops it, and FILE is untouched', async () => {
    const started = path.join(scratch.signals, 'checker');
    const run = startCli([
      '--json',
      '--output',
      scratch.out,
      '--expect-cmd',
      `${SLOW_CHECKER} ${started}`,
      '--',
      'echo',
      'x',
    ]);
    await waitFor('the checker to start', () => fs.existsSync(started), 20_000);
    process.kill(run.pid, 'SIGINT');
    const { code, stdout } = await run.done;
    expect(code).toBe(130);
    scratch.expectUntouched();
    const report = JSON.parse(stdout) as Report;
    expect(report.verdict.reason).toMatch(/stopped by SIGINT during the checks/);
  });
});

describe('refused before anything starts', () => {
  it.each([
    [['--expect', 'nonempty', '--', 'true'], /--expect works on a staged output: add --output FILE/],
    [
      ['--output', 'o', '--expect', 'lines>2', '--', 'true'],
      /expect "lines>2": expected one of nonempty, json/,
    ],
    [['--output', '.', '--', 'true'], /--output \.: not a regular file/],
    [
      ['--output', 'o', '--expect-cmd', 'no-such-checker-xyz', '--', 'true'],
      /expect-cmd "no-such-checker-xyz": /,
    ],
    [['--output', 'o', '--expect-cmd', 'a | b', '--', 'true'], /one command, not a pipeline/],
    [['--output', 'o', '--live-stdout', 'capped', '--', 'true'], /--output takes the product whole/],
  ])('%j', async (args, message) => {
    const result = await runCli(['--no-facts', ...args], { cwd: scratch.dir });
    expect(result.code).toBe(125);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    scratch.expectUntouched();
  });
});
