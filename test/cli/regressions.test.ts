import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, runJson, statuses } from '../helpers/index.js';

// The regression list of seed 000: each case runs real processes through the real CLI.
describe('seed 000 regressions', () => {
  it('reports ok when every stage succeeds', async () => {
    const { result, report } = await runJson(['-c', "printf 'a\\nb\\nc\\n' | grep b | wc -l"]);
    expect(result.code).toBe(0);
    expect(report.ok).toBe(true);
    expect(statuses(report)).toEqual(['ok', 'ok', 'ok']);
    expect(report.stages[2]!.stdout.text?.trim()).toBe('1');
  });

  it('fails when an upstream stage fails although the tail succeeds, and still shows the tail output', async () => {
    const { result, report } = await runJson(['-c', "sh -c 'exit 7' | wc -l"]);
    expect(result.code).toBe(7);
    expect(report.ok).toBe(false);
    expect(statuses(report)).toEqual(['failed', 'ok']);
    expect(report.stages[0]!.exitCode).toBe(7);
    expect(report.stages[1]!.stdout.text?.trim()).toBe('0');

    const live = await runCli(['--no-facts', '-c', "sh -c 'exit 7' | wc -l"]);
    expect(live.code).toBe(7);
    expect(live.stdout.trim()).toBe('0');
    expect(live.stderr).toMatch(/not ok, exit 7/);
  });

  it('applies each policy to several failures: pipefail blames the rightmost, first-failure the leftmost, last the tail', async () => {
    const pipeline = "sh -c 'exit 7' | sh -c 'cat >/dev/null; exit 9' | cat";
    const pipefail = await runJson(['-c', pipeline]);
    expect(pipefail.result.code).toBe(9);
    expect(statuses(pipefail.report)).toEqual(['failed', 'failed', 'ok']);
    const first = await runJson(['--policy', 'first-failure', '-c', pipeline]);
    expect(first.result.code).toBe(7);
    expect(first.report.verdict.blamedStage).toBe(1);
    const last = await runJson(['--policy', 'last', '-c', pipeline]);
    expect(last.result.code).toBe(0);
    expect(last.report.ok).toBe(true);
    expect(statuses(last.report)).toEqual(['failed', 'failed', 'ok']);
  });

  it('treats an empty result as success only when the user said grep may select nothing', async () => {
    const strict = await runJson(['-c', "printf 'a\\n' | grep zzz | wc -l"]);
    expect(strict.result.code).toBe(1);
    expect(strict.report.stages[1]!.status).toBe('failed');
    const allowed = await runJson(['--ok-codes', 'grep=0,1', '-c', "printf 'a\\n' | grep zzz | wc -l"]);
    expect(allowed.result.code).toBe(0);
    expect(allowed.report.stages[1]!.status).toBe('ok');
    expect(allowed.report.stages[1]!.exitCode).toBe(1);
    const byIndex = await runJson(['--ok-codes', '2=0,1', '-c', "printf 'a\\n' | grep zzz | wc -l"]);
    expect(byIndex.result.code).toBe(0);
  });

  it('tells a reader that closes early apart from a failure, and counts it as one under --sigpipe fail', async () => {
    const tolerant = await runJson(['-c', 'yes | head -n1']);
    expect(tolerant.result.code).toBe(0);
    expect(statuses(tolerant.report)).toEqual(['sigpipe', 'ok']);
    expect(tolerant.report.stages[0]!.signal).toBe('SIGPIPE');
    expect(tolerant.report.stages[0]!.exitCode).toBeNull();
    expect(tolerant.report.stages[0]!.succeeded).toBe(true);
    expect(tolerant.report.stages[1]!.stdout.text).toBe('y\n');
    const strict = await runJson(['--sigpipe', 'fail', '-c', 'yes | head -n1']);
    expect(strict.result.code).toBe(141);
    expect(strict.report.ok).toBe(false);
  });

  it('starts nothing when a program does not exist, and exits 127', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-test-'));
    const marker = path.join(dir, 'side-effect');
    const spec = path.join(dir, 'pipeline.yaml');
    fs.writeFileSync(
      spec,
      `version: 1\nstages:\n  - run: [touch, ${marker}]\n  - run: [no-such-program-xyz]\n`,
    );
    const { result, report } = await runJson(['-f', spec]);
    expect(result.code).toBe(127);
    expect(statuses(report)).toEqual(['skipped', 'not-started']);
    expect(report.stages[1]!.error?.code).toBe('ENOENT');
    expect(report.stages[1]!.hint).toMatch(/environment/);
    expect(fs.existsSync(marker)).toBe(false);
    fs.rmSync(dir, { recursive: true });
  });

  // -c is run as bash runs it: the missing program fails its stage alone (127), the others run.
  it('runs the other stages of a -c pipeline as bash does when a program does not exist', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-test-'));
    const marker = path.join(dir, 'side-effect');
    const { result, report } = await runJson(['-c', `touch ${marker} | no-such-program-xyz`]);
    expect(result.code).toBe(127);
    expect(statuses(report)).toEqual(['ok', 'not-started']);
    expect(report.stages[1]!.error).toMatchObject({ code: 'ENOENT', exitCode: 127, during: 'command' });
    expect(report.stages[1]!.hint).toMatch(/environment/);
    expect(report.stages[1]!.stderr.text).toBe('bash: line 1: no-such-program-xyz: command not found\n');
    expect(fs.existsSync(marker)).toBe(true);
    fs.rmSync(dir, { recursive: true });
  });

  it('exits 126 for a program that is found but not executable', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-test-'));
    const file = path.join(dir, 'tool');
    fs.writeFileSync(file, '#!/bin/sh\necho hi\n', { mode: 0o644 });
    const { result, report } = await runJson(['--', file]);
    expect(result.code).toBe(126);
    expect(report.stages[0]!.status).toBe('not-started');
    expect(report.stages[0]!.error?.code).toBe('EACCES');
    fs.rmSync(dir, { recursive: true });
  });

  it('reports a stage killed by a signal it did not get from safe-run as signaled, with 128+n', async () => {
    const { result, report } = await runJson(['-c', "sh -c 'kill -USR1 $$' | cat"]);
    expect(report.stages[0]!.status).toBe('signaled');
    expect(report.stages[0]!.signal).toBe('SIGUSR1');
    expect(result.code).toBe(128 + 10);
  });
});

describe('findings from review', () => {
  it('blames the failing reader, not the writer it left with SIGPIPE, under first-failure', async () => {
    const { result, report } = await runJson([
      '--policy',
      'first-failure',
      '-c',
      "yes | sh -c 'head -n1 >/dev/null; exit 3'",
    ]);
    expect(result.code).toBe(3);
    expect(report.verdict.blamedStage).toBe(2);
  });

  it('accepts a death by signal n when --ok-codes lists 128+n', async () => {
    const { result, report } = await runJson([
      '--sigpipe',
      'fail',
      '--ok-codes',
      'yes=0,141',
      '-c',
      'yes | head -n1',
    ]);
    expect(result.code).toBe(0);
    expect(report.stages[0]!.status).toBe('ok');
    expect(report.stages[0]!.signal).toBe('SIGPIPE');
  });

  it('streams the product unmasked, byte for byte, while the report masks it', async () => {
    const env = { DB_PASSWORD: 'postgres' };
    const live = await runCli(['--no-facts', '-q', '--', 'sh', '-c', 'echo "OWNER TO postgres;"'], { env });
    expect(live.stdout).toBe('OWNER TO postgres;\n');
    const { report } = await runJson(['--', 'sh', '-c', 'echo "OWNER TO postgres;"'], { env });
    expect(report.stages[0]!.stdout.text).toBe('OWNER TO ***;\n');
  });

  it('runs when PATH does not lead to mkfifo', async () => {
    const result = await runCli(['--no-facts', '-q', '--', '/bin/echo', 'hi'], { env: { PATH: '' } });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('hi\n');
  });

  it('writes --report into a device or through a symbolic link without replacing it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-report-'));
    const real = path.join(dir, 'real.json');
    const link = path.join(dir, 'link.json');
    fs.writeFileSync(real, '{}');
    fs.symlinkSync(real, link);
    await runCli(['--no-facts', '-q', '--report', link, '--', 'true']);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(fs.readFileSync(real, 'utf8')).schemaVersion).toBe(1);
    const before = fs.statSync('/dev/null');
    await runCli(['--no-facts', '-q', '--report', '/dev/null', '--', 'true']);
    expect(fs.statSync('/dev/null').isCharacterDevice()).toBe(true);
    expect(fs.statSync('/dev/null').ino).toBe(before.ino);
    fs.rmSync(dir, { recursive: true });
  });
});
