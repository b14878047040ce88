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
const { loadBundle } = require('../bin/load-cli.cjs');

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

const io = () => ({ stdout: sink(), stderr: sink(), env: runEnv, raw: null });
const ended = (what, code) => {
  if (code !== 0) throw new Error(`code cache: safe-run ${what} ended with ${code}`);
};

// What each cached bundle runs before its cache is taken (scripts/build-cli.mjs CACHED_BUNDLES).
const WARM_UPS = {
  main: async (bundle) => {
    for (const args of WORKLOADS) ended(args.join(' '), (await bundle.main(args, io())).code);
  },
  // The MCP server's bundle: its top level (the SDK's schemas, most of its start-up) and `mcp --help`.
  'mcp-command': async (bundle) => ended('mcp --help', await bundle.mcpCommand(['--help'], io())),
  // `safe-run inspect`'s bundle: an inspect of this process (a tree of one), as text. Without /proc
  // (macOS) inspect refuses, and the cache holds what that compiled: still a cache.
  'inspect-process': (bundle) => {
    const { code } = bundle.inspectMain(['inspect', String(process.pid)], io());
    if (fs.existsSync('/proc/self/stat')) ended(`inspect ${process.pid}`, code);
  },
};

async function writeCache(file, warmUp) {
  const cache = `${file}.cache`;
  fs.rmSync(cache, { force: true });
  const { module, script, stamp } = loadBundle(file, cache);
  if (stamp === null) throw new Error(`code cache: ${file} has no build stamp on its first line`);
  await warmUp(module.exports);
  // Whole or not at all: a run that starts meanwhile finds no cache, or this one.
  const partial = `${cache}.${process.pid}.tmp`;
  fs.writeFileSync(partial, Buffer.concat([Buffer.from(stamp, 'latin1'), script.createCachedData()]));
  fs.renameSync(partial, cache);
}

const check = process.argv[2] === '--check';
const dir = path.resolve(process.argv[check ? 3 : 2]);
for (const [name, warmUp] of Object.entries(WARM_UPS)) {
  const file = path.join(dir, `${name}.cjs`);
  if (!check) await writeCache(file, warmUp);
  else if (loadBundle(file).script.cachedDataRejected !== false) {
    process.stderr.write(`code cache: V8 rejected ${file}.cache (or it is missing)\n`);
    process.exitCode = 1;
  }
}
