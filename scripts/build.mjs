// Builds dist/: the library (dist/index.js, an ES module with lazily loaded chunks, and its .d.ts
// files) and the command line (dist/cli/, CommonJS bundles and the V8 code cache of the one every
// run loads; scripts/build-cli.mjs says why).
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildCli, CACHED_BUNDLES } from './build-cli.mjs';
import { sourceDigests, writeStamp } from './build-stamp.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

const dist = new URL('../dist', import.meta.url);
const next = new URL(`../dist.${process.pid}.tmp`, import.meta.url);
// A file path, not URL.pathname: that keeps %-escapes (a checkout in "/home/a b/" built into "a%20b").
const nextDir = fileURLToPath(next);
// What this build reads, taken before it reads anything: a file edited during the build then differs
// from the record, and the tests ask for another build (scripts/build-stamp.mjs).
const digests = sourceDigests(root);

await build({
  entryPoints: { index: 'src/index.ts' },
  outdir: nextDir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  define: { SAFE_RUN_VERSION: JSON.stringify(version) },
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
  legalComments: 'none',
  // commander is CommonJS: give its require() calls a real require in the ESM output.
  banner: {
    js: "import { createRequire as __safeRunRequire } from 'node:module'; const require = __safeRunRequire(import.meta.url);",
  },
});
await buildCli(root, `${nextDir}/cli`, version);

// The library's declarations (package.json "types"): tsc emits them incrementally into a cache, so a
// build where no source changed pays about a second for them instead of a full type check.
const cache = fileURLToPath(new URL('../node_modules/.cache/safe-run-types/', import.meta.url));
execFileSync(
  process.execPath,
  [
    fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url)),
    '-p',
    fileURLToPath(new URL('../tsconfig.types.json', import.meta.url)),
    '--incremental',
    '--tsBuildInfoFile',
    `${cache}tsbuildinfo.json`,
    '--outDir',
    `${cache}out`,
  ],
  { stdio: 'inherit' },
);
cpSync(`${cache}out`, `${nextDir}/types`, { recursive: true });
writeStamp(nextDir, digests);

// Replace the old build with the new one (a run that starts in between finds no dist/ and says so).
rmSync(dist, { recursive: true, force: true });
renameSync(next, dist);

// The code cache, made in place: V8 keeps the file name the cache was made under for stack traces.
// It is made by a plain `node` (no NODE_OPTIONS), as bin/safe-run is usually started.
const plainEnv = { ...process.env, NODE_OPTIONS: '' };
const codeCache = fileURLToPath(new URL('code-cache.mjs', import.meta.url));
const cliDir = fileURLToPath(new URL('../dist/cli', import.meta.url));
// The cache only makes start-up faster: a machine that cannot make it (no `true`, `printf` or `wc` on
// PATH) still gets a working build, with a warning; test/cli/bundles.test.ts fails on it in CI.
try {
  execFileSync(process.execPath, [codeCache, cliDir], { stdio: 'inherit', env: plainEnv });
  execFileSync(process.execPath, [codeCache, '--check', cliDir], { stdio: 'inherit', env: plainEnv });
} catch (error) {
  for (const name of CACHED_BUNDLES) rmSync(`${cliDir}/${name}.cjs.cache`, { force: true });
  process.stderr.write(
    `build: warning: dist/cli/ has no code cache (${error.message.split('\n')[0]}); start-up is slower\n`,
  );
}

// V8's start-up snapshot of the command line, for bin/safe-run (scripts/snapshot-entry.cjs says what
// it holds and how it stays bound to main.cjs): made by this node, which main.blob.node names, since
// no other Node can load it. Also only an accelerator: without it bin/safe-run uses the code cache.
try {
  makeSnapshot(cliDir);
} catch (error) {
  rmSync(`${cliDir}/main.blob`, { force: true });
  rmSync(`${cliDir}/main.blob.node`, { force: true });
  process.stderr.write(
    `build: warning: dist/cli/ has no start-up snapshot (${error.message.split('\n')[0]}); start-up is slower\n`,
  );
}

function makeSnapshot(dir) {
  const blob = `${dir}/main.blob`;
  const partial = `${blob}.${process.pid}.tmp`;
  const entry = fileURLToPath(new URL('snapshot-entry.cjs', import.meta.url));
  const env = { ...plainEnv, SAFE_RUN_SNAPSHOT_MAIN: `${dir}/main.cjs` };
  // Node warns that some of its modules are not verified in user snapshots: kept for a failure only.
  execFileSync(process.execPath, ['--snapshot-blob', partial, '--build-snapshot', entry], {
    env,
    stdio: 'pipe',
  });
  // The Node that can load it, with that Node's own modification time (to the nanosecond, by touch):
  // bin/safe-run uses the blob only with a Node at that path with that time, not an upgraded one.
  const node = realpathSync(process.execPath);
  writeFileSync(`${blob}.node`, `${node}\n`);
  execFileSync('touch', ['-r', node, `${blob}.node`]);
  renameSync(partial, blob);
  const run = (args) =>
    execFileSync(process.execPath, ['--snapshot-blob', blob, '--', ...args], {
      env: plainEnv,
      encoding: 'utf8',
    });
  if (run(['--version']).trim() !== version) throw new Error('the snapshot does not run --version');
}
