// The single-file binary (npm run build:binary): built here from this checkout into a scratch
// directory (about 5 s of CPU, 10-20 s on a busy 2-core machine), then run from a directory with no
// node_modules anywhere above it. SAFE_RUN_SKIP_BINARY=1 skips it where that time cannot be spared.
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const skip = process.env.SAFE_RUN_SKIP_BINARY === '1';
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-binary-'));
const binary = path.join(scratch, 'safe-run');
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

function run(args: string[], cwd = scratch) {
  const result = spawnSync(binary, args, {
    cwd,
    env: { PATH: '/usr/local/bin:/usr/bin:/bin', NO_COLOR: '1', HOME: scratch },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe.skipIf(skip)('the single-file binary', () => {
  beforeAll(() => {
    execFileSync(process.execPath, ['scripts/build-binary.mjs', `--out=${binary}`], {
      cwd: ROOT,
      stdio: 'ignore',
      timeout: 240_000,
    });
  }, 300_000);

  it('runs a pipeline from a directory with no node_modules above it', () => {
    for (let dir = scratch; dir !== path.dirname(dir); dir = path.dirname(dir)) {
      expect(fs.existsSync(path.join(dir, 'node_modules'))).toBe(false);
    }
    const result = run(['--no-facts', '-c', 'printf x | wc -c']);
    expect(result.stdout.trim()).toBe('1');
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^command: printf x \| wc -c\n/);
  });

  it('keeps the exit code policy, the JSON report and request errors', () => {
    const failed = run(['--no-facts', '--json', '-c', 'sh -c "exit 3" | cat']);
    expect(failed.code).toBe(3);
    expect(JSON.parse(failed.stdout)).toMatchObject({ ok: false, exitCode: 3, verdict: { blamedStage: 1 } });
    const bad = run(['--policy', 'maybe', '--', 'true']);
    expect(bad.code).toBe(125);
    expect(bad.stderr.split('\n')[0]).toMatch(/^safe-run: /);
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(run(['--version']).stdout.trim()).toBe(pkg.version);
  });

  it('loads the spec-file reader and subcommands that the checkout loads lazily', () => {
    const spec = path.join(scratch, 'p.yaml');
    fs.writeFileSync(spec, 'version: 1\nstages:\n  - run: [echo, from-yaml]\n');
    const result = run(['--no-facts', '-f', spec]);
    expect(result.stdout).toBe('from-yaml\n');
    expect(JSON.parse(run(['schema']).stdout)).toHaveProperty('$schema');
  });

  it('comes with a checksum file that matches it', () => {
    const [digest, name] = fs.readFileSync(`${binary}.sha256`, 'utf8').trim().split(/\s+/);
    expect(name).toBe('safe-run');
    expect(crypto.createHash('sha256').update(fs.readFileSync(binary)).digest('hex')).toBe(digest);
  });
});
