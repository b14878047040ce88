// The command line's bundles, in dist/cli/: main.cjs holds what every run needs, and each command or
// input that only some runs use (an MCP server, a spec file, a dry run...) is a bundle of its own,
// required when used. They are CommonJS so that bin/safe-run can hand V8 a code cache for main.cjs
// (Node 20 has no code cache for ES modules): start-up then skips parsing and compiling it.
//
// The bundles do not share module instances: a lazy bundle carries its own copy of what it uses.
// What crosses between them is plain data and errors, which are recognised by a brand, not by class
// identity (src/errors.ts). A test runs every lazy bundle's path through bin/safe-run.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

// Modules imported with `await import(...)` somewhere in src/, and the bundle each becomes.
export const LAZY_MODULES = {
  'src/spec-file/load-spec.ts': 'load-spec',
  'src/spec-file/schema.ts': 'schema',
  'src/hang/render-hang.ts': 'render-hang',
  'src/hang/inspect-command.ts': 'inspect-command',
  'src/cli/mcp-command.ts': 'mcp-command',
  'src/cli/facts-command.ts': 'facts-command',
  'src/cli/dry-run.ts': 'dry-run',
};

// Turns every dynamic import of a lazy module into a require of its bundle, beside the importer.
function lazyBundles(root) {
  const byPath = new Map(Object.entries(LAZY_MODULES).map(([file, name]) => [path.join(root, file), name]));
  return {
    name: 'safe-run-lazy-bundles',
    setup(builder) {
      builder.onResolve({ filter: /\.js$/, namespace: 'file' }, (args) => {
        if (args.kind !== 'dynamic-import') return undefined;
        const target = path.resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'));
        const name = byPath.get(target);
        if (name === undefined) {
          return { errors: [{ text: `${args.path} is imported lazily: add it to LAZY_MODULES` }] };
        }
        return { path: `./${name}.cjs`, external: true };
      });
    },
  };
}

// `import fs from 'node:fs'` in an ES module becomes, in CommonJS, a copy of every property of fs
// made where it is imported (esbuild's interop): 22 files import fs, 24 path. One module per builtin
// makes that copy once.
function sharedBuiltins() {
  return {
    name: 'safe-run-shared-builtins',
    setup(builder) {
      builder.onResolve({ filter: /^node:/ }, (args) =>
        args.namespace === 'builtin'
          ? { path: args.path, external: true }
          : { path: args.path, namespace: 'builtin' },
      );
      builder.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({
        contents: `const m = require(${JSON.stringify(args.path)});\nexport default m;\nexport * from ${JSON.stringify(args.path)};\n`,
        loader: 'js',
      }));
    },
  };
}

// The bundles bin/safe-run starts a process with: main.cjs for everything, and a bundle of its own for
// `safe-run inspect`, which someone looking at a stuck job waits for (src/cli/inspect-process.ts).
export const PROCESS_BUNDLES = {
  main: 'src/cli/run-process.ts',
  'inspect-process': 'src/cli/inspect-process.ts',
};

export async function buildCli(root, outdir, version, { minify = true } = {}) {
  const entryPoints = {
    ...Object.fromEntries(
      Object.entries(PROCESS_BUNDLES).map(([name, file]) => [name, path.join(root, file)]),
    ),
    ...Object.fromEntries(Object.entries(LAZY_MODULES).map(([file, name]) => [name, path.join(root, file)])),
  };
  await build({
    entryPoints,
    outdir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify,
    // A dynamic import() needs a module loader that a vm.Script has not: require() instead.
    supported: { 'dynamic-import': false },
    define: { SAFE_RUN_VERSION: JSON.stringify(version) },
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [lazyBundles(root), sharedBuiltins()],
  });
  for (const name of CACHED_BUNDLES) stampBundle(path.join(outdir, `${name}.cjs`));
}

// The bundles that get a V8 code cache (scripts/code-cache.mjs): what every run loads, the MCP
// server, which an agent's client starts and waits for, and `safe-run inspect`.
export const CACHED_BUNDLES = ['main', 'mcp-command', 'inspect-process'];

// The first line of a cached bundle names its text (bin/load-cli.cjs matches the code cache with it).
function stampBundle(file) {
  const body = fs.readFileSync(file, 'utf8');
  const digest = crypto.createHash('sha256').update(body).digest('hex').slice(0, 16);
  fs.writeFileSync(file, `// safe-run build ${digest}\n${body}`);
}
