'use strict';
// The entry of V8's start-up snapshot of the command line (dist/cli/main.blob), run by
// `node --snapshot-blob dist/cli/main.blob --build-snapshot scripts/snapshot-entry.cjs` (scripts/build.mjs).
// It compiles dist/cli/main.cjs (every function, not only the top level) and runs its top level, so
// a run started with the blob (bin/safe-run) begins with the bundle loaded and initialised: Node
// deserializes that heap instead of reading, compiling and evaluating the bundle.
//
// The blob is bound to the bundle it was made from: its first line (the build's stamp, see
// bin/load-cli.cjs) is kept here, and at run time the main.cjs beside the blob must still begin with
// it and must not be newer than the blob (a bundle edited in place keeps its stamp). Otherwise the
// run loads main.cjs the usual way (bin/load-cli.cjs, with its code cache): a stale snapshot costs a
// wasted deserialization, never the old code.
//
// Only Node's own modules can be required while the snapshot is made; what main.cjs requires later
// (a lazy bundle, such as the MCP server) is required at run time, beside the blob, through
// bin/load-cli.cjs. Nothing main.cjs does at its top level may depend on the process, the machine or
// the time: it ran on the build machine (src/ keeps such things in functions, run when called).
const fs = require('node:fs');
const { createRequire } = require('node:module');
const path = require('node:path');
const v8 = require('node:v8');
const vm = require('node:vm');

const WRAPPER = ['(function (exports, require, module, __filename, __dirname) { ', '\n});'];

const built = process.env.SAFE_RUN_SNAPSHOT_MAIN;
const text = fs.readFileSync(built, 'utf8');
const stamp = text.startsWith('// safe-run build ') ? text.slice(0, text.indexOf('\n') + 1) : null;
if (stamp === null) throw new Error(`${built} has no build stamp on its first line`);

// Set once the snapshot runs: the require of main.cjs beside the blob.
let live = null;
const buildTime = createRequire(built);
const bundleRequire = (id) => (live ?? buildTime)(id);

v8.setFlagsFromString('--no-lazy');
const script = new vm.Script(WRAPPER[0] + text + WRAPPER[1], { filename: built });
v8.setFlagsFromString('--lazy');
const bundle = { exports: {} };
script.runInThisContext()(bundle.exports, bundleRequire, bundle, built, path.dirname(built));

// The blob this process was started with (bin/safe-run passes `--snapshot-blob FILE`).
function blobFile() {
  const at = process.execArgv.indexOf('--snapshot-blob');
  return at === -1 ? null : path.resolve(process.execArgv[at + 1]);
}

// Whether main.cjs beside the blob is the bundle this snapshot holds: same stamp, not written after.
function sameBundle(main, blob) {
  let fd = null;
  try {
    fd = fs.openSync(main, 'r');
    const head = Buffer.alloc(stamp.length);
    const read = fs.readSync(fd, head, 0, head.length, 0);
    const mainTime = fs.fstatSync(fd).mtimeMs;
    return read === head.length && head.toString('latin1') === stamp && mainTime <= fs.statSync(blob).mtimeMs;
  } catch {
    return false;
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

v8.startupSnapshot.setDeserializeMainFunction(() => {
  // What bin/safe-run does before it loads anything (see there): SIGUSR1 is counted until the run
  // can answer it, and never left to Node's debugger.
  const early = { received: 0, listening: true };
  globalThis[Symbol.for('safe-run.early-sigusr1')] = early;
  process.on('SIGUSR1', () => {
    early.received += 1;
  });
  const blob = blobFile();
  const dir = blob === null ? path.dirname(built) : path.dirname(blob);
  const main = path.join(dir, 'main.cjs');
  const bin = path.join(dir, '..', '..', 'bin');
  // argv as bin/safe-run's: [node, bin/safe-run, ...arguments].
  process.argv.splice(1, 0, path.join(bin, 'safe-run'));
  // bin/load-cli.cjs is read only when needed: to load main.cjs instead, or a lazy bundle beside it.
  const loader = () => createRequire(main)(path.join(bin, 'load-cli.cjs'));
  if (blob === null || !sameBundle(main, blob)) {
    loader().loadCli(main).cli.runAsProcess();
    return;
  }
  let required = null;
  live = (id) => {
    required ??= loader().bundleRequire(main);
    return required(id);
  };
  bundle.exports.runAsProcess();
});
