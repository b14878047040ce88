'use strict';
// Loads dist/cli/main.cjs the way Node would load a CommonJS file, but compiled with the V8 code
// cache that the build wrote beside it (main.cjs.cache): start-up then skips parsing and compiling
// the bundle. The cache is only an accelerator. V8 checks it against its own version, its flags and
// the source, and a cache that is missing or rejected means the bundle is compiled as usual.
// scripts/code-cache.cjs writes the cache through this same function, so both see one source text.
const fs = require('node:fs');
const { createRequire } = require('node:module');
const path = require('node:path');
const vm = require('node:vm');

const WRAPPER = ['(function (exports, require, module, __filename, __dirname) { ', '\n});'];

function readCache(file) {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

function loadCli(file = path.join(__dirname, '..', 'dist', 'cli', 'main.cjs'), cacheFile = `${file}.cache`) {
  const source = WRAPPER[0] + fs.readFileSync(file, 'utf8') + WRAPPER[1];
  const script = new vm.Script(source, { filename: file, cachedData: readCache(cacheFile) });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, path.dirname(file));
  return { cli: module.exports, script };
}

module.exports = { loadCli };
