import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DryRunDocument } from '../../src/cli/dry-run.js';
import { findOnPath, runCli, scratchDir } from '../helpers/index.js';

// `--dry-run` with --output, its checks and --atomic-redirects: where the product would be staged,
// what must pass, and nothing created (no staged file, no FILE, no checker run).

const scratch = scratchDir('sr-dry-run-output-');
afterAll(() => scratch.remove());

async function dryRunJson(args: string[], cwd: string) {
  const result = await runCli(['--dry-run', '--json', '--no-facts', ...args], { cwd });
  return { result, plan: JSON.parse(result.stdout) as DryRunDocument };
}

describe('--dry-run shows the staged output', () => {
  it('--output with checks: FILE, the staged name beside it, each check and its program', async () => {
    const dir = scratch.fresh();
    const checker = `sh -c 'touch ${path.join(dir, 'checked')}'`;
    const args = ['--output', 'out.json', '--keep-partial', '--expect', 'json', '--expect-cmd', checker];
    const { result, plan } = await dryRunJson([...args, '--', 'echo', '{}'], dir);
    expect(result.code).toBe(0);
    expect(plan.output).toEqual({
      file: path.join(dir, 'out.json'),
      from: { kind: 'stdout' },
      stagedIn: dir,
      stagedName: '.out.json.PID.RANDOM.staged',
      keepPartial: true,
      checks: [
        { check: 'json', program: null },
        { check: `cmd: ${checker}`, program: findOnPath('sh') },
      ],
    });
    const text = await runCli(['--dry-run', '--no-facts', ...args, '--', 'echo', '{}'], { cwd: dir });
    expect(text.stdout).toContain(
      `output ${path.join(dir, 'out.json')}\n  product    the last stage's stdout (--output)\n`,
    );
    expect(text.stdout).toContain(`  staged     ${path.join(dir, '.out.json.PID.RANDOM.staged')}\n`);
    expect(text.stdout).toContain(`is kept as ${path.join(dir, 'out.json')}.partial\n`);
    expect(text.stdout).toContain(`  check      cmd: ${checker} (program ${findOnPath('sh')})\n`);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('--atomic-redirects: the redirection staged, on which stage, and FILE left alone', async () => {
    const dir = scratch.fresh();
    fs.writeFileSync(path.join(dir, 'report.txt'), 'old\n');
    const text = 'printf "b\\na\\n" | sort > report.txt';
    const { result, plan } = await dryRunJson(
      ['--atomic-redirects', '--expect', 'nonempty', '-c', text],
      dir,
    );
    expect(result.code).toBe(0);
    expect(plan.output).toMatchObject({
      file: path.join(dir, 'report.txt'),
      from: { kind: 'redirect', redirect: '> report.txt', stage: 2 },
      stagedIn: dir,
      checks: [{ check: 'nonempty', program: null }],
    });
    const shown = await runCli(['--dry-run', '--no-facts', '--atomic-redirects', '-c', text], { cwd: dir });
    expect(shown.stdout).toMatch(
      /^ {2}product {4}the text's final "> report.txt" on stage 2 \(--atomic-redirects\)/m,
    );
    expect(fs.readdirSync(dir)).toEqual(['report.txt']);
    expect(fs.readFileSync(path.join(dir, 'report.txt'), 'utf8')).toBe('old\n');
  });

  it('says output: null when nothing is staged', async () => {
    const { plan } = await dryRunJson(['--', 'true'], scratch.fresh());
    expect(plan.output).toBeNull();
  });
});
