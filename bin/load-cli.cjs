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

function stampOf(text) {
  return text.startsWith(STAMP) ? text.slice(0, text.indexOf('\n') + 1) : null;
}

function readCache(file, stamp) {
  try {
    const data = fs.readFileSync(file);
    const fits = stamp !== null && data.length > stamp.length && data.toString('latin1', 0, stamp.length) === stamp;
    return fits ? data.subarray(stamp.length) : undefined;
  } catch {
    return undefined;
  }
}

function loadCli(file = path.join(__dirname, '..', 'dist', 'cli', 'main.cjs'), cacheFile = `${file}.cache`) {
  const text = fs.readFileSync(file, 'utf8');
  const stamp = stampOf(text);
  const script = new vm.Script(WRAPPER[0] + text + WRAPPER[1], {
    filename: file,
    cachedData: readCache(cacheFile, stamp),
  });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, path.dirname(file));
  return { cli: module.exports, script, stamp };
}

module.exports = { loadCli };
