'use strict';
// Loads dist/cli/main.cjs the way Node would load a CommonJS file, but compiled with the V8 code
// cache that the build wrote beside it (main.cjs.cache): start-up then skips parsing and compiling
// the bundle. The cache is only an accelerator: missing, from another build, or rejected by V8 (made
// by another V8 version or under other flags), the bundle is compiled as usual.
// scripts/code-cache.mjs writes the cache through this same function, so both see one source text.
const fs = require('node:fs');
const { createRequire } = require('node:module');
const path = require('node:path');
const vm = require('node:vm');

const WRAPPER = ['(function (exports, require, module, __filename, __dirname) { ', '\n});'];
// V8 matches a cache to its source by length alone, so the build stamps main.cjs with a digest of
// its text on the first line (scripts/build-cli.mjs) and the cache file begins with the same line:
// a cache is used only with the bundle it was made from.
const STAMP = '// safe-run build ';
// The cache of main.cjs is a few hundred kilobytes; anything far larger is not one.
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

function stampOf(text) {
  return text.startsWith(STAMP) ? text.slice(0, text.indexOf('\n') + 1) : null;
}

// The bundle's text, and when it was last written (read from one open file, so both are of one file).
function readBundle(file) {
  const fd = fs.openSync(file, 'r');
  try {
    return { text: fs.readFileSync(fd, 'utf8'), mtimeMs: fs.fstatSync(fd).mtimeMs };
  } finally {
    fs.closeSync(fd);
  }
}

// The cache without its stamp line, or undefined. Only a regular file of a plausible size is read:
// opened without blocking, a FIFO or a device in its place cannot stall or swamp start-up. A cache
// older than the bundle is not used: a bundle edited in place keeps its stamp, and its length too
// if the edit does, and V8 would then run the code of the old text.
function readCache(file, stamp, bundleMtimeMs) {
  if (stamp === null) return undefined;
  let fd = null;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    const stats = fs.fstatSync(fd);
    const usable = stats.isFile() && stats.size > stamp.length && stats.size <= MAX_CACHE_BYTES;
    if (!usable || stats.mtimeMs < bundleMtimeMs) return undefined;
    const data = Buffer.allocUnsafe(stats.size);
    const fits =
      fs.readSync(fd, data, 0, stats.size, 0) === stats.size &&
      data.toString('latin1', 0, stamp.length) === stamp;
    return fits ? data.subarray(stamp.length) : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

// Compiles and runs one CommonJS bundle with the code cache beside it (FILE.cache), if one fits.
// `require` in the bundle loads the lazy bundles beside it that have a cache of their own the same
// way (today the MCP server's, whose compile was a third of `safe-run mcp`'s start-up), once each.
function loadBundle(file, cacheFile = `${file}.cache`, loaded = new Map()) {
  const { text, mtimeMs } = readBundle(file);
  const stamp = stampOf(text);
  const script = new vm.Script(WRAPPER[0] + text + WRAPPER[1], {
    filename: file,
    cachedData: readCache(cacheFile, stamp, mtimeMs),
  });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, bundleRequire(file, loaded), module, file, path.dirname(file));
  return { module, script, stamp };
}

// The `require` a bundle is run with: a lazy bundle beside it that has a code cache is loaded through
// loadBundle (once per process), anything else as Node would. The start-up snapshot
// (scripts/snapshot-entry.cjs) hands main.cjs the same, once the snapshot is running.
function bundleRequire(file, loaded = new Map()) {
  const base = createRequire(file);
  const dir = path.dirname(file);
  const required = (id) => {
    if (typeof id !== 'string' || !/^\.\/[\w-]+\.cjs$/.test(id)) return base(id);
    const lazy = path.join(dir, id);
    if (!loaded.has(lazy)) {
      if (!fs.existsSync(`${lazy}.cache`)) return base(id);
      loaded.set(lazy, loadBundle(lazy, `${lazy}.cache`, loaded));
    }
    return loaded.get(lazy).module.exports;
  };
  return Object.assign(required, base);
}

function loadCli(file = path.join(__dirname, '..', 'dist', 'cli', 'main.cjs'), cacheFile = `${file}.cache`) {
  const { module, script, stamp } = loadBundle(file, cacheFile);
  return { cli: module.exports, script, stamp };
}

module.exports = { bundleRequire, loadBundle, loadCli };
