// --atomic-redirects: a -c text's final `> FILE` is staged beside FILE and renamed over it only when
// the run succeeds. Real stages, real signals to the real CLI; FILE and its directory are checked.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/types.js';
import { BIN, FIXTURES, outputScratch, runCli, runJson, waitFor } from '../helpers/index.js';

const PRODUCE = path.join(FIXTURES, 'output', 'produce-then-wait.sh');
const scratch = outputScratch('safe-run-atomic');

// The fixture writes 'partial product', then waits to be stopped.
const producing = () => `${PRODUCE} '${path.join(scratch.signals, 'started')}' > out.txt`;
const started = () => fs.existsSync(path.join(scratch.signals, 'started'));

describe('--atomic-redirects: FILE is replaced only when the run succeeds', () => {
  it('writes exactly the bytes, with the mode a new file gets from the umask, and nothing else', () => {
    const data = randomBytes(2 * 1024 * 1024 + 5);
    const source = path.join(scratch.signals, 'data.bin');
    fs.writeFileSync(source, data);
    fs.rmSync(scratch.out);
    // umask is the shell's to set: safe-run is started the way a shell would start it.
    const result = spawnSync(
      '/bin/sh',
      [
        '-c',
        'umask 027 && exec "$@"',
        'sh',
        process.execPath,
        BIN,
        '--no-facts',
        '--json',
        '--atomic-redirects',
        '-c',
        `cat '${source}' | cat > out.txt`,
      ],
      {
        cwd: scratch.dir,
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, SAFE_RUN_FACTS: undefined },
      },
    );
    expect(result.status).toBe(0);
    expect(fs.readFileSync(scratch.out).equals(data)).toBe(true);
    expect(fs.statSync(scratch.out).mode & 0o777).toBe(0o640);
    expect(scratch.listing()).toEqual(['out.txt']);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.output).toMatchObject({ file: scratch.out, published: true, bytes: data.length });
    // The stage is reported as writing FILE as written, not the staged file.
    expect(report.stages[1]!.stdout.to).toBe('file out.txt');
    expect(report.stages[1]!.stdout.target).toEqual({ kind: 'file', path: 'out.txt' });
  });

  it('a failing stage leaves FILE untouched, where bash would have emptied it', async () => {
    const { result, report } = await runJson(
      ['--atomic-redirects', '-c', 'false | sh -c "echo partial" > out.txt'],
      {
        cwd: scratch.dir,
      },
    );
    expect(result.code).toBe(1);
    scratch.expectUntouched();
    expect(report.output).toMatchObject({ published: false, kept: null, bytes: 8 });
    expect(report.output!.reason).toMatch(/^the run did not succeed/);
  });

  it('a timeout leaves FILE untouched', async () => {
    const { result, report } = await runJson(
      ['--atomic-redirects', '--timeout', '300ms', '-c', producing()],
      {
        cwd: scratch.dir,
      },
    );
    expect(result.code).toBe(124);
    scratch.expectUntouched();
    expect(report.output?.published).toBe(false);
  });

  it('a failed check leaves FILE untouched', async () => {
    const { result, report } = await runJson(
      ['--atomic-redirects', '--expect', 'json', '-c', 'echo "{bad" > out.txt'],
      {
        cwd: scratch.dir,
      },
    );
    expect(result.code).toBe(1);
    scratch.expectUntouched();
    expect(report.checks).toMatchObject([{ check: 'json', status: 'failed' }]);
  });

  it('SIGINT during the run leaves FILE untouched and removes the staged file', async () => {
    let pid = -1;
    const run = runCli(['--no-facts', '--json', '--atomic-redirects', '-c', producing()], {
      cwd: scratch.dir,
      onStart: (started) => {
        pid = started;
      },
    });
    await waitFor('the stage to start', started, 20_000);
    process.kill(pid, 'SIGINT');
    const result = await run;
    expect(result.code).toBe(130);
    scratch.expectUntouched();
    expect((JSON.parse(result.stdout) as Report).output).toMatchObject({ published: false, bytes: 16 });
  });

  it('SIGKILL of safe-run during the run: the watchdog removes the staged file', async () => {
    let pid = -1;
    const run = runCli(['--no-facts', '--atomic-redirects', '-c', producing()], {
      cwd: scratch.dir,
      onStart: (started) => {
        pid = started;
      },
    });
    await waitFor('the stage to start', started, 20_000);
    expect(scratch.listing().some((name) => name.endsWith('.staged'))).toBe(true);
    process.kill(pid, 'SIGKILL');
    expect((await run).signal).toBe('SIGKILL');
    await waitFor('the staged file to be removed', () => scratch.listing().length === 1, 20_000);
    scratch.expectUntouched();
  });

  it('keeps the permission bits of an existing FILE, and a stage reading FILE sees its old content', async () => {
    fs.chmodSync(scratch.out, 0o600);
    const { result } = await runJson(['--atomic-redirects', '-c', 'tr a-z A-Z < out.txt > out.txt'], {
      cwd: scratch.dir,
    });
    expect(result.code).toBe(0);
    expect(fs.readFileSync(scratch.out, 'utf8')).toBe('OLD CONTENT\n');
    expect(fs.statSync(scratch.out).mode & 0o777).toBe(0o600);
  });

  it('stages the last redirection of stdout only: an earlier one is opened (truncated) as in bash', async () => {
    const { result, report } = await runJson(['--atomic-redirects', '-c', 'echo x > out.txt > other.txt'], {
      cwd: scratch.dir,
    });
    expect(result.code).toBe(0);
    expect(report.output).toMatchObject({ file: path.join(scratch.dir, 'other.txt'), published: true });
    expect(fs.readFileSync(path.join(scratch.dir, 'other.txt'), 'utf8')).toBe('x\n');
    expect(fs.readFileSync(scratch.out, 'utf8')).toBe('');
  });
});

describe('--atomic-redirects refused with 125 when nothing qualifies, before anything starts', () => {
  it.each([
    [
      'echo x >> out.txt',
      /^safe-run: --atomic-redirects: nothing to stage: .*">> out.txt" appends, which a rename cannot stage/,
    ],
    [
      'echo x',
      /^safe-run: --atomic-redirects: nothing to stage: the last command of the text does not end in > FILE/,
    ],
    ['echo x > out.txt; echo y', /does not end in > FILE/],
    ['echo x 2> out.txt', /does not end in > FILE/],
    ['echo x &> out.txt', /"&> out.txt" is not `> FILE` of stdout alone/],
    ['echo x > $TARGET', /the file of "> \$TARGET" expands/],
    [
      'cd . && echo x > out.txt',
      /"> out.txt" is relative and an earlier command runs cd: write FILE as an absolute path/,
    ],
  ])('%j', async (text, message) => {
    const result = await runCli(['--no-facts', '--atomic-redirects', '-c', `touch ran; ${text}`], {
      cwd: scratch.dir,
    });
    expect(result.code).toBe(125);
    expect(result.stderr.split('\n')[0]).toMatch(message);
    scratch.expectUntouched();
  });

  it('for argv, a spec, --fallback bash and --output', async () => {
    const cases: [string[], RegExp][] = [
      [['--', 'echo', 'x'], /it stages a redirection of -c text; for a command or a spec, use --output FILE/],
      [
        ['--fallback', 'bash', '-c', 'f=<(true); echo > out.txt'],
        /runs under --fallback bash \(<\( \.\.\. \) at column 3\)/,
      ],
      [
        ['--output', 'o.txt', '-c', 'echo x > out.txt'],
        /--atomic-redirects and --output both name the product/,
      ],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(['--no-facts', '--atomic-redirects', ...args], { cwd: scratch.dir });
      expect(result.code).toBe(125);
      expect(result.stderr.split('\n')[0]).toMatch(message);
      scratch.expectUntouched();
    }
  });
});
