// Writes docs/schema/spec.schema.json from src/spec-file/schema.ts, the one definition of the spec format.
//   node scripts/gen-spec-schema.mjs          regenerate the file
//   node scripts/gen-spec-schema.mjs --check  exit 1 if the committed file is out of date
// test/spec-file/spec-docs.test.ts fails whenever the file and the schema disagree.
import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(root, 'docs/schema/spec.schema.json');

// The schema is TypeScript; bundle it (with zod) into one module and import that from memory.
const bundle = await build({
  absWorkingDir: root,
  entryPoints: ['src/spec-file/schema.ts'],
  bundle: true,
  format: 'esm',
  platform: 'node',
  write: false,
  logLevel: 'error',
});
const code = bundle.outputFiles[0].text;
const { specJsonSchemaText } = await import(
  `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`
);
const text = specJsonSchemaText();

// Content, not layout, is what must not drift (the test compares the same way).
const normalize = (json) => `${JSON.stringify(JSON.parse(json), null, 2)}\n`;

if (process.argv.includes('--check')) {
  const current = await readFile(target, 'utf8').catch(() => '{}');
  if (normalize(current) !== text) {
    console.error('docs/schema/spec.schema.json is out of date; run: node scripts/gen-spec-schema.mjs');
    process.exit(1);
  }
  console.log('docs/schema/spec.schema.json is up to date');
} else {
  // Laid out as biome formats JSON, so that `biome check` leaves the file alone.
  const biome = spawnSync(join(root, 'node_modules/.bin/biome'), ['format', `--stdin-file-path=${target}`], {
    input: text,
    encoding: 'utf8',
  });
  await writeFile(target, biome.status === 0 && biome.stdout ? biome.stdout : text);
  console.log('wrote docs/schema/spec.schema.json');
}
