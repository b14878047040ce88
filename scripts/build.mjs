// Bundles the CLI and the library into dist/ (one file each, plus lazily loaded chunks for spec files
// and subcommands), so start-up loads only what a run uses.
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

const dist = new URL('../dist', import.meta.url);
const next = new URL(`../dist.${process.pid}.tmp`, import.meta.url);

await build({
  entryPoints: { cli: 'src/cli/run-process.ts', index: 'src/index.ts' },
  outdir: next.pathname,
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
cpSync(`${cache}out`, `${next.pathname}/types`, { recursive: true });

// Swap the new build in whole, so a run that starts meanwhile sees the old build or the new one.
rmSync(dist, { recursive: true, force: true });
renameSync(next, dist);
