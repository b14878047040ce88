// Builds dist/safe-run: one file with Node and safe-run inside (a Node single executable
// application). The CLI is bundled into one CommonJS script (what SEA runs), turned into a blob by
// `node --experimental-sea-config`, and injected into a copy of this node binary by postject.
// Options: --no-code-cache builds without V8's code cache (for the start-up comparison).
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

const require = createRequire(import.meta.url);
const { inject } = require('postject');
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const codeCache = !process.argv.includes('--no-code-cache');
const output = path.resolve(
  root,
  process.argv.find((arg) => arg.startsWith('--out='))?.slice(6) ?? 'dist/safe-run',
);
fs.mkdirSync(path.dirname(output), { recursive: true });
const work = fs.mkdtempSync(path.join(path.dirname(output), '.safe-run-binary-'));
// The fuse postject flips so that node looks for the injected blob (fixed by Node's SEA design).
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

try {
  const script = path.join(work, 'safe-run.cjs');
  await build({
    entryPoints: [path.join(root, 'src/cli/sea-entry.ts')],
    outfile: script,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify: true,
    define: { SAFE_RUN_VERSION: JSON.stringify(version) },
    legalComments: 'none',
    logLevel: 'warning',
  });
  const blob = path.join(work, 'sea.blob');
  const config = path.join(work, 'sea-config.json');
  fs.writeFileSync(
    config,
    JSON.stringify({
      main: script,
      output: blob,
      disableExperimentalSEAWarning: true,
      useCodeCache: codeCache,
    }),
  );
  execFileSync(process.execPath, ['--experimental-sea-config', config], { stdio: 'inherit' });
  const binary = path.join(work, 'safe-run');
  fs.copyFileSync(process.execPath, binary);
  fs.chmodSync(binary, 0o755);
  await inject(binary, 'NODE_SEA_BLOB', fs.readFileSync(blob), { sentinelFuse: FUSE });
  // In place whole or not at all, so a run never meets a half-written binary.
  fs.renameSync(binary, output);
  const digest = crypto.createHash('sha256').update(fs.readFileSync(output)).digest('hex');
  fs.writeFileSync(`${output}.sha256`, `${digest}  ${path.basename(output)}\n`);
  const mib = (fs.statSync(output).size / 1024 / 1024).toFixed(1);
  console.log(
    `${path.relative(root, output)}: ${mib} MiB, node ${process.version}, code cache ${codeCache ? 'on' : 'off'}, sha256 ${digest}`,
  );
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
