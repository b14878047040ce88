// What the figures depend on: the machine and its load, and which safe-run build was measured.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function describeMachine() {
  return {
    date: new Date().toISOString(),
    node: process.version,
    cores: os.cpus().length,
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    kernel: os.release(),
    loadStart: os.loadavg(),
    loadEnd: null,
  };
}

// A copy of bin/ and dist/ taken before the first run, so that a rebuild of the checkout during the
// benchmark (other work goes on in it) cannot change what is measured halfway through. A copy taken
// while a build is emptying dist/ fails (or fails --version in describeBuild): take it again.
export function snapshotBuild(repoRoot, tmpDir) {
  const target = path.join(tmpDir, 'safe-run');
  fs.rmSync(target, { recursive: true, force: true });
  // With their times: bin/load-cli.cjs uses the code cache only if it is not older than main.cjs, and
  // a copy made in directory order (hash order on ext4) would date the cache before the bundle.
  const copy = { recursive: true, preserveTimestamps: true };
  fs.cpSync(path.join(repoRoot, 'bin'), path.join(target, 'bin'), copy);
  fs.cpSync(path.join(repoRoot, 'dist'), path.join(target, 'dist'), copy);
  return path.join(target, 'bin', 'safe-run');
}

// One line saying which build ran: version, when dist/ was built, and the commit it was built on
// (read only: rev-parse changes nothing).
export function describeBuild(bin, repoRoot, snapshotted) {
  const version = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  if (version.error) throw new Error(`cannot run ${bin}: ${version.error.message}`);
  if (version.status !== 0) {
    throw new Error(`${bin} --version failed (exit ${version.status}): ${version.stderr.trim()}`);
  }
  const parts = [`safe-run ${version.stdout.trim()}`];
  if (snapshotted) {
    const built = fs.statSync(path.join(repoRoot, 'dist', 'cli', 'main.cjs')).mtime.toISOString();
    const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' });
    parts.push(`dist/ built ${built}`);
    if (head.status === 0) parts.push(`checkout at ${head.stdout.trim()} (plus any uncommitted changes)`);
    parts.push('copied before the first run');
  } else {
    parts.push(`at ${bin}`);
  }
  return parts.join(', ');
}

// Every case runs with this small, fixed environment: nothing secret-looking from the caller's
// environment turns masking on by accident, and the facts ledger is a scratch file.
export function benchEnvironment(tmpDir) {
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: process.env.HOME ?? tmpDir,
    LC_ALL: 'C',
    TMPDIR: tmpDir,
    SAFE_RUN_FACTS: path.join(tmpDir, 'facts.jsonl'),
  };
}
