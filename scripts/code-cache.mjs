// Writes V8's code cache for dist/cli/main.cjs, mcp-command.cjs and inspect-process.cjs (read by
// bin/load-cli.cjs): the bundle is loaded
// exactly as bin/safe-run loads it, a few ordinary runs go through it in this process, and the
// cache is taken after them, so it holds the functions those runs compiled, not only the top level.
// Run by scripts/build.mjs in a child with no NODE_OPTIONS: V8 rejects a cache made under other flags.
// usage: node scripts/code-cache.mjs DIR           (DIR holds main.cjs) writes the cache
//        node scripts/code-cache.mjs --check DIR   exits 1 if V8 rejects it (a fresh process: V8's
//                                                  in-process compilation cache would hide that)
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Writable } from 'node:stream';

const require = createRequire(import.meta.url);
const { loadBundle, loadCli } = require('../bin/load-cli.cjs');

// What agents and CI jobs run most: a quiet argv run, and a -c pipeline reported as a table.
const WORKLOADS = [
  ['-q', '--', 'true'],
  ['-c', 'printf x | wc -c'],
];

// The runs see PATH and HOME only: what the builder's environment says to safe-run (SAFE_RUN_OPTIONS,
// a CI's GITHUB_STEP_SUMMARY, SAFE_RUN_FACTS) is for the builder's own runs, and must neither fail
// the build nor have it write reports or summaries.
const runEnv = Object.fromEntries(
  ['PATH', 'HOME'].flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]]])),
);

const sink = () =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });

async function writeCache(main, cache) {
  fs.rmSync(cache, { force: true });
  const { cli, script, stamp } = loadCli(main, cache);
  if (stamp === null) throw new Error(`code cache: ${main} has no build stamp on its first line`);
  for (const args of WORKLOADS) {
    const { code } = await cli.main(args, { stdout: sink(), stderr: sink(), env: runEnv, raw: null });
    if (code !== 0) throw new Error(`code cache: safe-run ${args.join(' ')} ended with ${code}`);
  }
  // Whole or not at all: a run that starts meanwhile finds no cache, or this one.
  const partial = `${cache}.${process.pid}.tmp`;
  fs.writeFileSync(partial, Buffer.concat([Buffer.from(stamp, 'latin1'), script.createCachedData()]));
  fs.renameSync(partial, cache);
}

// The MCP server's bundle: its top level (the SDK's schemas, most of its start-up) and `mcp --help`.
async function writeMcpCache(bundle, cache) {
  fs.rmSync(cache, { force: true });
  const { module, script, stamp } = loadBundle(bundle, cache);
  if (stamp === null) throw new Error(`code cache: ${bundle} has no build stamp on its first line`);
  const code = await module.exports.mcpCommand(['--help'], {
    stdout: sink(),
    stderr: sink(),
    env: runEnv,
    raw: null,
  });
  if (code !== 0) throw new Error(`code cache: safe-run mcp --help ended with ${code}`);
  const partial = `${cache}.${process.pid}.tmp`;
  fs.writeFileSync(partial, Buffer.concat([Buffer.from(stamp, 'latin1'), script.createCachedData()]));
  fs.renameSync(partial, cache);
}

// `safe-run inspect`'s bundle: an inspect of this process (a tree of one), as text.
async function writeInspectCache(bundle, cache) {
  fs.rmSync(cache, { force: true });
  const { module, script, stamp } = loadBundle(bundle, cache);
  if (stamp === null) throw new Error(`code cache: ${bundle} has no build stamp on its first line`);
  const { code } = module.exports.inspectMain(['inspect', String(process.pid)], {
    stdout: sink(),
    stderr: sink(),
    env: runEnv,
  });
  // Without /proc (macOS) inspect refuses, and the cache holds what that compiled: still a cache.
  if (code !== 0 && fs.existsSync('/proc/self/stat')) {
    throw new Error(`code cache: safe-run inspect ${process.pid} ended with ${code}`);
  }
  const partial = `${cache}.${process.pid}.tmp`;
  fs.writeFileSync(partial, Buffer.concat([Buffer.from(stamp, 'latin1'), script.createCachedData()]));
  fs.renameSync(partial, cache);
}

const check = process.argv[2] === '--check';
const dir = path.resolve(process.argv[check ? 3 : 2]);
const main = path.join(dir, 'main.cjs');
const mcp = path.join(dir, 'mcp-command.cjs');
const inspect = path.join(dir, 'inspect-process.cjs');
if (check) {
  for (const { script, file } of [
    { ...loadCli(main), file: main },
    { ...loadBundle(mcp), file: mcp },
    { ...loadBundle(inspect), file: inspect },
  ]) {
    if (script.cachedDataRejected !== false) {
      process.stderr.write(`code cache: V8 rejected ${file}.cache (or it is missing)\n`);
      process.exitCode = 1;
    }
  }
} else {
  await writeCache(main, `${main}.cache`);
  await writeMcpCache(mcp, `${mcp}.cache`);
  await writeInspectCache(inspect, `${inspect}.cache`);
}
