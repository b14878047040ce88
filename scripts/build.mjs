// Bundles the CLI and the library into dist/ (one file each, plus lazily loaded chunks for spec files
// and subcommands), so start-up loads only what a run uses.
import { readFileSync, renameSync, rmSync } from 'node:fs';
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

// Swap the new build in whole, so a run that starts meanwhile sees the old build or the new one.
rmSync(dist, { recursive: true, force: true });
renameSync(next, dist);
