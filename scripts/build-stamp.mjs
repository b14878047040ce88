// What dist/ was built from: a digest of every file the build reads, written by scripts/build.mjs
// into dist/build-sources.json. The tests run the built dist/, so before they start
// (test/helpers/fresh-build.ts) the sources are compared with that record: a change in src/ without
// a rebuild would otherwise pass against the old code. Contents are compared, not times: a fresh
// clone's files all carry the time of the checkout, and an editor may keep a file's time.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const STAMP_FILE = 'dist/build-sources.json';

// The files and folders the build reads, relative to the root: the sources, the build itself, the
// version and dependencies it bundles, the compiler settings of the declarations.
export const BUILD_INPUTS = [
  'src',
  'scripts/build.mjs',
  'scripts/build-cli.mjs',
  'scripts/code-cache.mjs',
  'bin/load-cli.cjs',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.types.json',
];

function filesUnder(root, entry) {
  const full = path.join(root, entry);
  let stats;
  try {
    stats = fs.statSync(full);
  } catch {
    return [];
  }
  if (!stats.isDirectory()) return [entry];
  return fs
    .readdirSync(full)
    .flatMap((name) => filesUnder(root, `${entry}/${name}`))
    .sort();
}

// File (relative, forward slashes) -> the first 16 hex digits of its SHA-256.
export function sourceDigests(root) {
  const digests = {};
  for (const file of BUILD_INPUTS.flatMap((entry) => filesUnder(root, entry))) {
    const bytes = fs.readFileSync(path.join(root, file));
    digests[file] = crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  }
  return digests;
}

// Writes the record of `digests` (taken before the build read anything) into a built dist/ at `dir`.
export function writeStamp(dir, digests) {
  fs.writeFileSync(
    path.join(dir, path.basename(STAMP_FILE)),
    `${JSON.stringify({ files: digests }, null, 1)}\n`,
  );
}

function readStamp(root) {
  try {
    const files = JSON.parse(fs.readFileSync(path.join(root, STAMP_FILE), 'utf8')).files;
    return files && typeof files === 'object' ? files : null;
  } catch {
    return null;
  }
}

// How the sources differ from what dist/ was built from: the files changed, added and removed.
export function buildDrift(root) {
  const built = readStamp(root);
  if (built === null) return null;
  const now = sourceDigests(root);
  const drift = [];
  for (const [file, digest] of Object.entries(now)) {
    if (!(file in built)) drift.push(`${file} is new`);
    else if (built[file] !== digest) drift.push(`${file} changed`);
  }
  for (const file of Object.keys(built)) if (!(file in now)) drift.push(`${file} was removed`);
  return drift;
}

// One line saying why dist/ is not the build of these sources, or null when it is.
export function staleBuild(root) {
  const drift = buildDrift(root);
  if (drift === null)
    return `${STAMP_FILE} is missing or unreadable: dist/ is not a build of these sources; run npm run build`;
  if (drift.length === 0) return null;
  const more = drift.length > 3 ? ` (and ${drift.length - 3} more)` : '';
  return `${drift.slice(0, 3).join(', ')}${more} since dist/ was built: run npm run build`;
}
