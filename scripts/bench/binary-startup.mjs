// Start-up of the single-file binary against `node -e 0`, with and without V8's code cache, and
// against the checkout's bin/safe-run. Builds both binaries into a scratch directory, then runs the
// cases in interleaved rounds (so a change in the machine's load hits every case alike) and prints
// a Markdown table of medians and of ratios to `node -e 0` from the same round.
// usage: node scripts/bench/binary-startup.mjs [--rounds N]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hasGnuTime, measureOnce } from './measure.mjs';
import { median, pairedRatio } from './stats.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const at = process.argv.indexOf('--rounds');
const rounds = at === -1 ? 30 : Number(process.argv[at + 1]);
const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-bench-binary-'));
const withCache = path.join(tmpDir, 'safe-run');
const without = path.join(tmpDir, 'safe-run-no-cache');

try {
  for (const [out, flags] of [
    [withCache, []],
    [without, ['--no-code-cache']],
  ]) {
    execFileSync(process.execPath, ['scripts/build-binary.mjs', `--out=${out}`, ...flags], {
      cwd: root,
      stdio: 'ignore',
    });
  }
  const env = { PATH: process.env.PATH, HOME: tmpDir, NO_COLOR: '1' };
  const cases = [
    ['node -e 0', [process.execPath, '-e', '0']],
    ['binary --version (code cache)', [withCache, '--version']],
    ['binary --version (no code cache)', [without, '--version']],
    ['bin/safe-run --version (checkout)', [process.execPath, path.join(root, 'bin/safe-run'), '--version']],
    ['binary -q -- true (code cache)', [withCache, '--no-facts', '-q', '--', 'true']],
    ['binary -q -- true (no code cache)', [without, '--no-facts', '-q', '--', 'true']],
    [
      'bin/safe-run -q -- true (checkout)',
      [process.execPath, path.join(root, 'bin/safe-run'), '--no-facts', '-q', '--', 'true'],
    ],
  ];
  const useTime = hasGnuTime();
  const samples = cases.map(() => []);
  for (let round = 0; round < rounds; round += 1) {
    for (const [i, [, argv]] of cases.entries()) {
      const sample = await measureOnce(
        { argv, env, cwd: tmpDir, stdout: 'null', stderr: 'null' },
        { useTime, tmpDir },
      );
      samples[i].push(sample.code === 0 ? sample : null);
    }
  }
  const size = (file) => `${(fs.statSync(file).size / 1024 / 1024).toFixed(1)} MiB`;
  console.log(
    `${rounds} rounds, ${os.cpus().length} CPUs, node ${process.version}; binary ${size(withCache)} (no code cache: ${size(without)})\n`,
  );
  console.log('| case | wall (median) | x node -e 0 | peak RSS (median) |');
  console.log('| --- | --: | --: | --: |');
  for (const [i, [name]] of cases.entries()) {
    const wall = median(samples[i].map((s) => s?.wallMs ?? null));
    const rss = median(samples[i].map((s) => s?.rssKiB ?? null));
    const ratio = pairedRatio(samples[i], samples[0], 'wallMs');
    console.log(
      `| ${name} | ${wall?.toFixed(1) ?? '-'} ms | ${ratio?.toFixed(2) ?? '-'} | ${rss ? `${(rss / 1024).toFixed(1)} MiB` : '-'} |`,
    );
  }
} finally {
  fs.rmSync(tmpDir, { recursive: true, force: true });
}
