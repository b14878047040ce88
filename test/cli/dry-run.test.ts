import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DryRunDocument } from '../../src/cli/dry-run.js';
import { type CliOptions, findOnPath, putFile, runCli, runJson, scratchDir } from '../helpers/index.js';

// `--dry-run`: the plan a run would follow, checked against the machine, with nothing started.
// Every pipeline here would create a file if it ran; the tests check that it does not exist.

const scratch = scratchDir('sr-dry-run-');
afterAll(() => scratch.remove());
const freshDir = scratch.fresh;
const write = putFile;

// Where `which` would find a program, looked up here independently of safe-run.
function onPath(program: string): string {
  const found = findOnPath(program);
  if (found === null) throw new Error(`${program} is not on PATH`);
  return found;
}

function dryRun(args: string[], options: CliOptions = {}) {
  return runCli(['--dry-run', '--no-facts', ...args], options);
}

async function dryRunJson(args: string[], options: CliOptions = {}) {
  const result = await runCli(['--dry-run', '--json', '--no-facts', ...args], options);
  return { result, plan: JSON.parse(result.stdout) as DryRunDocument };
}

describe('--dry-run with each way of giving a pipeline', () => {
  it('-f: exits 0, prints every stage with its resolved program, and starts nothing', async () => {
    const dir = freshDir();
    const marker = path.join(dir, 'started');
    const file = write(
      dir,
      'pipeline.yaml',
      `version: 1\nstages:\n  - name: create\n    run: [touch, ${marker}]\n  - run: [wc, -l]\n`,
    );
    const result = await dryRun(['-f', file]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const out = result.stdout.split('\n');
    expect(out[0]).toBe('dry run: 2 stages from the spec file');
    expect(out).toContain('stage 1 "create"');
    expect(out).toContain(`  program    ${onPath('touch')}`);
    expect(out).toContain(`  argv       ["touch","${marker}"]`);
    expect(out).toContain('stage 2 "wc"');
    expect(out).toContain(`  program    ${onPath('wc')}`);
    expect(out).toContain(
      'dry run: ok, exit 0 (every program was found and can be started); nothing was started',
    );
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('-c: exits 0 and starts nothing', async () => {
    const dir = freshDir();
    const marker = path.join(dir, 'started');
    const result = await dryRun(['-c', `touch ${marker} | cat`]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^dry run: 2 stages from the -c pipeline\n/);
    expect(result.stdout).toContain(`  program    ${onPath('cat')}\n`);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('--: exits 0 and starts nothing', async () => {
    const dir = freshDir();
    const marker = path.join(dir, 'started');
    const result = await dryRun(['--', 'touch', marker]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^dry run: 1 stage from the command after --\n/);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('creates no log directory, report file or ledger', async () => {
    const dir = freshDir();
    const file = write(dir, 'pipeline.yaml', 'version: 1\nlog-dir: logs\nstages:\n  - run: ["true"]\n');
    const ledger = path.join(dir, 'facts.jsonl');
    const result = await runCli(['--dry-run', '-f', file, '--report', path.join(dir, 'report.json')], {
      env: { SAFE_RUN_FACTS: ledger },
    });
    expect(result.code).toBe(0);
    expect(fs.readdirSync(dir)).toEqual(['pipeline.yaml']);
  });
});

describe('the plan a dry run prints', () => {
  it('shows resolved paths, working directories and each stage own settings', async () => {
    const dir = freshDir();
    fs.mkdirSync(path.join(dir, 'tools'));
    const tool = write(path.join(dir, 'tools'), 'tool', '#!/bin/sh\ntouch started\n', 0o755);
    const file = write(
      dir,
      'pipeline.yaml',
      [
        'version: 1',
        'stages:',
        '  - name: local-tool',
        '    run: [./tool, --flag]',
        '    cwd: tools',
        '    env: { MODE: fast }',
        '    ok-codes: [0, 3]',
        '    optional: true',
        '    timeout: 90s',
        '    max-stdout: 1MiB',
        '',
      ].join('\n'),
    );
    const result = await dryRun(['-f', file]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      [
        'stage 1 "local-tool"',
        `  program    ${tool}`,
        '  argv       ["./tool","--flag"]',
        `  cwd        ${path.join(dir, 'tools')}`,
        '  env        MODE=fast',
        '  ok-codes   0, 3',
        '  optional   yes: its failure never decides the verdict',
        '  timeout    90s',
        '  max-stdout 1MiB',
      ].join('\n'),
    );
    expect(fs.existsSync(path.join(dir, 'tools', 'started'))).toBe(false);
  });

  it('shows every effective setting: defaults, then the file, then flags', async () => {
    const dir = freshDir();
    const file = write(
      dir,
      'pipeline.yaml',
      'version: 1\npolicy: first-failure\ntimeout: 2m\nmax-stdout: 64KiB\nlive-stdout: capped\nstages:\n  - run: ["true"]\n',
    );
    const result = await dryRun(['-f', file, '--max-stdout', '1KiB', '--stdin', 'null', '--mask', 'DB_URL']);
    const settings = result.stdout.slice(result.stdout.indexOf('\nsettings\n') + 1).split('\n');
    expect(settings).toEqual([
      'settings',
      '  policy         first-failure',
      '  sigpipe        tolerate',
      '  stdin          null',
      '  timeout        2m',
      '  idle-timeout   none',
      '  prompt-wait    none',
      '  kill-after     5s',
      '  drain-timeout  2s',
      '  max-stdout     1KiB',
      '  max-stderr     32KiB',
      '  max-log        100MiB',
      '  on-limit       truncate',
      '  live-stdout    capped',
      '  log-dir        none',
      '  leftovers      kill',
      '  fail-fast      false',
      '  on-deadlock    wait',
      '  mask           DB_URL',
      '  facts          off',
      'dry run: ok, exit 0 (every program was found and can be started); nothing was started',
      '',
    ]);
  });

  it('never shows the value of a secret-looking or masked variable', async () => {
    const dir = freshDir();
    const file = write(
      dir,
      'pipeline.yaml',
      [
        'version: 1',
        'mask: [DB_URL]',
        'stages:',
        '  - run: [curl, -H, "Authorization: Bearer tok-1234567890"]',
        '    env: { API_TOKEN: tok-1234567890, DB_URL: "postgres://u:p@db/x", MODE: fast }',
        '',
      ].join('\n'),
    );
    const text = await dryRun(['-f', file]);
    expect(text.stdout).toContain('  env        API_TOKEN=***\n');
    expect(text.stdout).toContain('  env        DB_URL=***\n');
    expect(text.stdout).toContain('  env        MODE=fast\n');
    expect(text.stdout).toContain('["curl","-H","Authorization: Bearer ***"]');
    expect(text.stdout).not.toContain('tok-1234567890');
    expect(text.stdout).not.toContain('postgres://');
    const { plan } = await dryRunJson(['-f', file]);
    expect(plan.stages[0]!.env).toEqual({ API_TOKEN: '***', DB_URL: '***', MODE: 'fast' });
  });
});

describe('a dry run when preflight would fail', () => {
  // (A -c text's command fails alone in a real run, as in bash: `touch` would run. The dry run says so.)
  it('exits 127 for a program that is not on PATH, and starts nothing', async () => {
    const dir = freshDir();
    const marker = path.join(dir, 'started');
    const result = await dryRun(['-c', `touch ${marker} | no-such-program-xyz`]);
    expect(result.code).toBe(127);
    expect(result.stdout).toMatch(/stage 2 "no-such-program-xyz" \(command \d\)\n {2}program {4}not found\n/);
    expect(result.stdout).toMatch(/ {2}error {6}ENOENT: `no-such-program-xyz` was not found on PATH/);
    expect(result.stdout).toMatch(
      /\ndry run: not ok, exit 127 \(stage 2 "no-such-program-xyz" cannot be started: ENOENT\); a run would run the text and fail each such command alone, as bash does\n$/,
    );
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('exits 127 for a working directory that does not exist', async () => {
    const dir = freshDir();
    const file = write(dir, 'pipeline.yaml', 'version: 1\nstages:\n  - run: ["true"]\n    cwd: missing\n');
    const { result, plan } = await dryRunJson(['-f', file]);
    expect(result.code).toBe(127);
    expect(plan.stages[0]!.error?.message).toContain(path.join(dir, 'missing'));
  });

  it('exits 126 for a file that is not executable, and for a directory', async () => {
    const dir = freshDir();
    write(dir, 'script', '#!/bin/sh\ntouch started\n', 0o644);
    fs.mkdirSync(path.join(dir, 'folder'));
    for (const program of ['./script', './folder']) {
      const result = await dryRun(['--', program], { cwd: dir });
      expect(result.code, program).toBe(126);
      expect(result.stdout).toContain('a run would start no stage');
    }
    expect(fs.existsSync(path.join(dir, 'started'))).toBe(false);
  });

  it('exits 127 when an optional stage cannot start: a run would not start the others either', async () => {
    const dir = freshDir();
    const marker = path.join(dir, 'started');
    const file = write(
      dir,
      'pipeline.yaml',
      `version: 1\nstages:\n  - run: [touch, ${marker}]\n  - run: [no-such-program-xyz]\n    optional: true\n`,
    );
    const result = await dryRun(['-f', file]);
    expect(result.code).toBe(127);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it.each(['pipefail', 'first-failure', 'last'])(
    'exits with the code a real run would give under policy %s',
    async (policy) => {
      const dir = freshDir();
      write(dir, 'script', 'echo\n', 0o644);
      for (const pipeline of ['./script | no-such-program-xyz', 'no-such-program-xyz | ./script']) {
        const args = ['--policy', policy, '-c', pipeline];
        const dry = await dryRun(args, { cwd: dir });
        const { result: real } = await runJson(args, { cwd: dir });
        expect(dry.code, pipeline).toBe(real.code);
        expect([126, 127]).toContain(dry.code);
      }
    },
  );
});

describe('--dry-run --json', () => {
  it('prints the plan as one JSON document, with the settings a run would use', async () => {
    const dir = freshDir();
    const marker = path.join(dir, 'started');
    const file = write(
      dir,
      'pipeline.yaml',
      `version: 1\ntimeout: 2m\nstages:\n  - name: create\n    run: [touch, ${marker}]\n    ok-codes: [0, 1]\n`,
    );
    const { result, plan } = await dryRunJson(['-f', file, '--kill-after', '1s']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(plan).toMatchObject({
      schemaVersion: 1,
      dryRun: true,
      ok: true,
      exitCode: 0,
      source: 'spec',
      stages: [
        {
          index: 1,
          name: 'create',
          argv: ['touch', marker],
          cwd: process.cwd(),
          okCodes: [0, 1],
          resolvedPath: onPath('touch'),
          ok: true,
          error: null,
        },
      ],
    });
    expect(fs.existsSync(marker)).toBe(false);
    // The same settings as the report of a real run of the same command line.
    const { report } = await runJson(['-f', file, '--kill-after', '1s']);
    expect(plan.settings).toEqual(report.settings);
    expect(plan.settings).toMatchObject({ timeoutMs: 120_000, killAfterMs: 1000 });
  });

  it('says why preflight would fail, stage by stage', async () => {
    const { result, plan } = await dryRunJson(['-c', 'cat | no-such-program-xyz']);
    expect(result.code).toBe(127);
    expect(plan.ok).toBe(false);
    expect(plan.exitCode).toBe(127);
    expect(plan.reason).toBe('stage 2 "no-such-program-xyz" cannot be started: ENOENT');
    expect(plan.stages.map((stage) => [stage.ok, stage.error?.code ?? null])).toEqual([
      [true, null],
      [false, 'ENOENT'],
    ]);
  });
});

describe('--dry-run with a request that is wrong', () => {
  it('exits 125 like a run, before resolving anything', async () => {
    const result = await dryRun(['-f', 'no-such-pipeline.yaml']);
    expect(result.code).toBe(125);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('safe-run: no-such-pipeline.yaml: no such file\n');
    const nothing = await dryRun([]);
    expect(nothing.code).toBe(125);
  });
});
