import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a build script in plain JavaScript, without declarations
import { LAZY_MODULES, PROCESS_BUNDLES } from '../../scripts/build-cli.mjs';
import { BIN, ROOT } from '../helpers/cli.js';
import { scratchDir } from '../helpers/index.js';

const CLI = path.join(ROOT, 'dist', 'cli');
const read = (name: string) => fs.readFileSync(path.join(CLI, name), 'utf8');

// scripts/build-cli.mjs: main.cjs is what every run loads; the rest is loaded by the runs that use it.
describe('the command line bundles in dist/cli/', () => {
  it('keep the MCP SDK, zod and the YAML parser out of the bundle every run loads', () => {
    const main = read('main.cjs');
    for (const marker of ['tools/call', 'ZodError', 'YAMLParseError']) {
      expect(main).not.toContain(marker);
    }
    expect(read('mcp-command.cjs')).toContain('tools/call');
    expect(read('load-spec.cjs')).toContain('YAMLParseError');
  });

  // V8 keeps a script's source for its whole run, one byte a character only when every character is
  // Latin-1: one '…' in a regular expression (esbuild escapes strings, not regular expressions) made
  // main.cjs a two-byte string, which cost 1.8 MiB of every run's peak RSS and 1 MB of the snapshot.
  it('are ASCII, so V8 holds their source one byte a character', () => {
    for (const file of fs.readdirSync(CLI).filter((name) => name.endsWith('.cjs'))) {
      const text = read(file);
      const wide = /[^\x00-\x7f]/.exec(text);
      const where = wide && JSON.stringify(text.slice(wide.index - 40, wide.index + 10));
      expect(where && `${file}: ${where}`).toBe(null);
    }
  });

  it('have one bundle per lazily imported module, each required by name, none by import()', () => {
    const names = Object.values(LAZY_MODULES as Record<string, string>);
    const built = fs.readdirSync(CLI).filter((file) => file.endsWith('.cjs'));
    const processes = Object.keys(PROCESS_BUNDLES as Record<string, string>);
    expect(built.sort()).toEqual([...processes, ...names].map((name) => `${name}.cjs`).sort());
    for (const file of built) expect(read(file)).not.toMatch(/\bimport\(/);
    const required = [...read('main.cjs').matchAll(/require\("\.\/([a-z-]+)\.cjs"\)/g)].map((m) => m[1]);
    expect(new Set(required)).toEqual(new Set(names));
  });

  // What V8 did with the cache: false (used), true (rejected), undefined (none was handed to it).
  const cacheUse = (root: string) => {
    const probe = `const { loadCli } = require(${JSON.stringify(path.join(root, 'bin', 'load-cli.cjs'))});
      process.stdout.write(String(loadCli().script.cachedDataRejected));`;
    const env = { ...process.env, NODE_OPTIONS: '' };
    return execFileSync(process.execPath, ['-e', probe], { env, encoding: 'utf8', timeout: 30_000 });
  };
  const scratch = scratchDir('sr-bundles-');
  afterAll(() => scratch.remove());

  it('load main.cjs with a code cache that this node accepts', () => {
    expect(cacheUse(ROOT)).toBe('false');
  });

  it.each(['mcp-command', 'inspect-process'])(
    'load the %s bundle with a code cache of its own, through the same loader',
    (name) => {
      const code = `const { loadBundle } = require(${JSON.stringify(path.join(ROOT, 'bin', 'load-cli.cjs'))});
      process.stdout.write(String(loadBundle(${JSON.stringify(path.join(CLI, `${name}.cjs`))}).script.cachedDataRejected));`;
      const env = { ...process.env, NODE_OPTIONS: '' };
      expect(execFileSync(process.execPath, ['-e', code], { env, encoding: 'utf8', timeout: 30_000 })).toBe(
        'false',
      );
    },
  );

  // bin/ and dist/cli/ copied into a scratch directory, to be damaged there.
  const copyCli = () => {
    const copy = scratch.fresh();
    fs.cpSync(path.join(ROOT, 'bin'), path.join(copy, 'bin'), { recursive: true });
    fs.cpSync(CLI, path.join(copy, 'dist', 'cli'), { recursive: true });
    const main = path.join(copy, 'dist', 'cli', 'main.cjs');
    return { copy, main, cache: `${main}.cache` };
  };
  const runCopy = (copy: string) =>
    execFileSync(path.join(copy, 'bin', 'safe-run'), ['-q', '--', 'echo', 'still runs'], {
      encoding: 'utf8',
      timeout: 30_000,
    });

  // bin/safe-run starts `safe-run inspect` from dist/cli/inspect-process.cjs, not from main.cjs or the
  // snapshot: with those gone, inspect still answers and a run cannot start.
  it('start `safe-run inspect` from a bundle of its own', () => {
    const { copy } = copyCli();
    for (const file of ['main.cjs', 'main.cjs.cache', 'main.blob'])
      fs.rmSync(path.join(copy, 'dist', 'cli', file));
    const bin = path.join(copy, 'bin', 'safe-run');
    const env = { ...process.env, NODE_OPTIONS: '' };
    for (const argv of [[bin], [process.execPath, bin]]) {
      const inspect = spawnSync(argv[0]!, [...argv.slice(1), 'inspect', String(process.pid)], {
        env,
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(inspect.stderr).toBe('');
      expect(inspect.stdout).toMatch(new RegExp(`^safe-run inspect ${process.pid}: \\d+ process\\(es\\)\n`));
      expect(inspect.status).toBe(0);
      const run = spawnSync(argv[0]!, [...argv.slice(1), '--version'], {
        env,
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(run.stderr).toMatch(/^safe-run: cannot load the command line/);
      expect(run.status).toBe(125);
    }
  });

  // The same command in main.cjs (the single-file binary, main() in-process) answers alike.
  it('answer a refused `safe-run inspect` exactly as main.cjs does', () => {
    // A script file, not `node -e`: node reads `node -e CODE inspect` as its own debugger command.
    const viaMain = path.join(scratch.fresh(), 'via-main.cjs');
    fs.writeFileSync(
      viaMain,
      `const { loadCli } = require(${JSON.stringify(path.join(ROOT, 'bin', 'load-cli.cjs'))});
      loadCli().cli.main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env })
        .then((r) => { process.exitCode = r.code; });`,
    );
    const cases: [string[], Record<string, string>][] = [
      [['inspect', '0'], {}],
      [['inspect', '--bogus', '1'], {}],
      [['inspect'], { SAFE_RUN_OPTIONS: '--json compact' }],
      [['inspect', '999999999'], { SAFE_RUN_OPTIONS: '--json' }],
      [['inspect', '1', '2'], { SAFE_RUN_OPTIONS: '"--unclosed' }],
    ];
    for (const [args, extra] of cases) {
      const env = { ...process.env, NODE_OPTIONS: '', ...extra };
      const bin = spawnSync(BIN, args, { env, encoding: 'utf8', timeout: 30_000 });
      const main = spawnSync(process.execPath, [viaMain, ...args], {
        env,
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(bin.status).toBe(125);
      expect(bin.stderr).toMatch(/^safe-run: inspect: /);
      expect({ status: bin.status, stdout: bin.stdout, stderr: bin.stderr }).toEqual({
        status: main.status,
        stdout: main.stdout,
        stderr: main.stderr,
      });
    }
  });

  it('never hand V8 the cache of another build, whose text may have the same length', () => {
    const { copy, main } = copyCli();
    const text = fs.readFileSync(main, 'utf8');
    expect(text).toMatch(/^\/\/ safe-run build [0-9a-f]{16}\n/);
    // Another build of the same length: only the stamp differs.
    const other = text.replace(
      /^(\/\/ safe-run build )([0-9a-f])/,
      (_all, head: string, digit: string) => head + (digit === '0' ? '1' : '0'),
    );
    expect(other.length).toBe(text.length);
    fs.writeFileSync(main, other);
    expect(cacheUse(copy)).toBe('undefined');
    const run = runCopy(copy);
    expect(run).toBe('still runs\n');
  });

  // An edit keeps the stamp, and V8 would run the cached code of the old text in place of the new.
  it('never hand V8 the cache of a bundle edited after the build, even at the same length', () => {
    const { copy, main, cache } = copyCli();
    const text = fs.readFileSync(main, 'utf8');
    const edited = text.replace(': satisfied', ': SATISFIED');
    expect(edited).not.toBe(text);
    fs.writeFileSync(main, edited);
    const built = fs.statSync(cache).mtime;
    fs.utimesSync(main, built, new Date(built.getTime() + 10_000));
    expect(cacheUse(copy)).toBe('undefined');
  });

  it('start without the cache when its place holds a FIFO, a device or a directory', () => {
    const { copy, cache } = copyCli();
    fs.rmSync(cache);
    execFileSync('mkfifo', [cache]);
    expect(cacheUse(copy)).toBe('undefined');
    expect(runCopy(copy)).toBe('still runs\n');
    fs.rmSync(cache);
    fs.symlinkSync('/dev/zero', cache);
    expect(cacheUse(copy)).toBe('undefined');
    fs.rmSync(cache);
    fs.mkdirSync(cache);
    expect(runCopy(copy)).toBe('still runs\n');
  });

  // The build makes the cache from real runs: the builder's SAFE_RUN_OPTIONS and CI summary are not theirs.
  it('make the cache with runs that the environment of the build does not reach', () => {
    const { copy, cache } = copyCli();
    const summary = path.join(copy, 'summary.md');
    const env = {
      ...process.env,
      NODE_OPTIONS: '',
      SAFE_RUN_OPTIONS: '--no-such-flag',
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: summary,
    };
    const script = path.join(ROOT, 'scripts', 'code-cache.mjs');
    execFileSync(process.execPath, [script, path.dirname(cache)], { env, stdio: 'pipe' });
    expect(fs.existsSync(summary)).toBe(false);
    expect(cacheUse(copy)).toBe('false');
  });
});
