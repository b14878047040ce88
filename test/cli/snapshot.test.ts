import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { scratchDir } from '../helpers/index.js';

// bin/ and dist/cli/ copied into a scratch directory with their times (bin/safe-run compares them), to
// be damaged there.
const scratch = scratchDir('sr-snapshot-');
afterAll(() => scratch.remove());

function copyCli() {
  const copy = scratch.fresh();
  const times = { recursive: true, preserveTimestamps: true };
  fs.cpSync(path.join(ROOT, 'bin'), path.join(copy, 'bin'), times);
  fs.cpSync(path.join(ROOT, 'dist', 'cli'), path.join(copy, 'dist', 'cli'), times);
  const cli = path.join(copy, 'dist', 'cli');
  return { copy, main: path.join(cli, 'main.cjs'), blob: path.join(cli, 'main.blob') };
}

// The copy's bin/safe-run run as a program: the command line of its Node process (as its stage sees
// its parent), and the table it wrote on stderr.
function run(copy: string, env: Record<string, string> = {}) {
  const file = path.join(copy, 'table.txt');
  const fd = fs.openSync(file, 'w');
  try {
    const node = execFileSync(
      path.join(copy, 'bin', 'safe-run'),
      ['--', 'sh', '-c', 'tr "\\0" " " < /proc/$PPID/cmdline'],
      {
        env: { ...process.env, NODE_OPTIONS: '', NO_COLOR: '1', ...env },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', fd],
        timeout: 60_000,
      },
    );
    return { node, table: fs.readFileSync(file, 'utf8') };
  } finally {
    fs.closeSync(fd);
  }
}

// The same bundle with other text of the same length: what a stale snapshot would still say.
function edit(main: string): void {
  const text = fs.readFileSync(main, 'utf8');
  const edited = text.replace(': satisfied', ': SATISFIED');
  expect(edited).not.toBe(text);
  fs.writeFileSync(main, edited);
}

describe('the start-up snapshot (dist/cli/main.blob)', () => {
  it('was made by the build with the Node that will load it', () => {
    const cli = path.join(ROOT, 'dist', 'cli');
    expect(fs.readFileSync(path.join(cli, 'main.blob.node'), 'utf8').trim()).toBe(
      fs.realpathSync(process.execPath),
    );
    expect(fs.statSync(path.join(cli, 'main.blob')).mtimeMs).toBeGreaterThan(
      fs.statSync(path.join(cli, 'main.cjs')).mtimeMs,
    );
  });

  it('starts bin/safe-run when it was made from the bundle beside it', () => {
    const { copy } = copyCli();
    const { node, table } = run(copy);
    expect(node).toContain('--snapshot-blob');
    expect(table).toContain('policy pipefail: satisfied');
  });

  it('is passed over for a bundle written after it, which runs as it is now', () => {
    const { copy, main } = copyCli();
    edit(main);
    const { node, table } = run(copy);
    expect(node).not.toContain('--snapshot-blob');
    expect(table).toContain('policy pipefail: SATISFIED');
  });

  // A bundle of another build dated before the blob: bin/safe-run starts the snapshot, which finds
  // another stamp on main.cjs and loads it instead of running what it holds.
  it('hands over to the bundle beside it when that is not the one it holds, whatever the dates say', () => {
    const { copy, main, blob } = copyCli();
    const text = fs.readFileSync(main, 'utf8');
    const other = text
      .replace(
        /^(\/\/ safe-run build )([0-9a-f])/,
        (_all, head: string, digit: string) => head + (digit === '0' ? '1' : '0'),
      )
      .replace(': satisfied', ': SATISFIED');
    fs.writeFileSync(main, other);
    const before = new Date(fs.statSync(blob).mtimeMs - 60_000);
    fs.utimesSync(main, before, before);
    fs.rmSync(`${main}.cache`);
    const { node, table } = run(copy);
    expect(node).toContain('--snapshot-blob');
    expect(table).toContain('policy pipefail: SATISFIED');
  });

  it('is not needed: without it, or with NODE_OPTIONS set, bin/safe-run runs the bundle with node', () => {
    const { copy, blob } = copyCli();
    expect(run(copy, { NODE_OPTIONS: '--no-warnings' }).node).not.toContain('--snapshot-blob');
    fs.rmSync(blob);
    expect(run(copy).node).not.toContain('--snapshot-blob');
  });

  // A Node other than the one that made it cannot load it: the one named in main.blob.node must be
  // there with the modification time that file bears (not another build, not upgraded in place).
  it('is started only by the Node that made it, unchanged since', () => {
    const { copy, blob } = copyCli();
    const impostor = path.join(copy, 'node');
    fs.writeFileSync(impostor, '#!/bin/sh\necho "impostor $*"\n', { mode: 0o755 });
    const named = `${blob}.node`;
    const madeBy = fs.statSync(named);
    fs.writeFileSync(named, `${impostor}\n`);
    fs.utimesSync(named, madeBy.atime, madeBy.mtime);
    // Another time than the one the blob was made with: passed over.
    expect(run(copy).node).not.toContain('impostor');
    // The same file with that very time would be taken for the Node that made it: the times decide.
    execFileSync('touch', ['-r', named, impostor]);
    expect(run(copy).node).toContain('impostor --snapshot-blob');
    fs.writeFileSync(named, `${path.join(copy, 'no-such-node')}\n`);
    fs.utimesSync(named, madeBy.atime, madeBy.mtime);
    expect(run(copy).node).not.toContain('--snapshot-blob');
  });
});
