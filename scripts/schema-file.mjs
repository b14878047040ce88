// What the schema generators share: a TypeScript module of src/ imported from memory (bundled by
// esbuild, so Node needs no TypeScript loader), and a JSON file written as biome lays it out or
// checked against what it should hold.
import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export async function importSource(entry) {
  const bundle = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'error',
  });
  const code = bundle.outputFiles[0].text;
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}

// Content, not layout, is what must not drift (the tests compare the same way).
const normalize = (json) => `${JSON.stringify(JSON.parse(json), null, 2)}\n`;

// Writes `text` (JSON) to `target`, or with --check exits 1 when the committed file differs.
export async function writeOrCheck(target, text, script) {
  const shown = relative(root, target);
  if (process.argv.includes('--check')) {
    const current = await readFile(target, 'utf8').catch(() => '{}');
    if (normalize(current) !== normalize(text)) {
      console.error(`${shown} is out of date; run: node ${script}`);
      process.exit(1);
    }
    console.log(`${shown} is up to date`);
    return;
  }
  // Laid out as biome formats JSON, so that `biome check` leaves the file alone.
  const biome = spawnSync(join(root, 'node_modules/.bin/biome'), ['format', `--stdin-file-path=${target}`], {
    input: text,
    encoding: 'utf8',
  });
  await writeFile(target, biome.status === 0 && biome.stdout ? biome.stdout : text);
  console.log(`wrote ${shown}`);
}
