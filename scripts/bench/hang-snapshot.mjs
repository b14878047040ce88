// Bundles the TypeScript benchmark with esbuild (as scripts/build.mjs does for the CLI) and runs it.
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';

const out = '/tmp/safe-run-hang-bench.mjs';
await build({
  entryPoints: ['scripts/bench/hang-snapshot.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  outfile: out,
});
const sizes = process.argv.length > 2 ? process.argv.slice(2) : ['5', '50', '200'];
execFileSync(process.execPath, [out, ...sizes], { stdio: 'inherit' });
