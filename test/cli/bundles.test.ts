import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script in plain JavaScript, without declarations
import { LAZY_MODULES } from '../../scripts/build-cli.mjs';
import { ROOT } from '../helpers/cli.js';

const CLI = path.join(ROOT, 'dist', 'cli');
const read = (name: string) => fs.readFileSync(path.join(CLI, name), 'utf8');

// scripts/build-cli.mjs: main.cjs is what every run loads; the rest is loaded by the runs that use it.
describe('the command line bundles in dist/cli/', () => {
  it('keep the MCP SDK, zod and the YAML parser out of the bundle every run loads', () => {
    const main = read('main.cjs');
    for (const marker of ['StdioServerTransport', 'ZodError', 'YAMLParseError']) {
      expect(main).not.toContain(marker);
    }
    expect(read('mcp-command.cjs')).toContain('StdioServerTransport');
    expect(read('load-spec.cjs')).toContain('YAMLParseError');
  });

  it('have one bundle per lazily imported module, each required by name, none by import()', () => {
    const names = Object.values(LAZY_MODULES as Record<string, string>);
    const built = fs.readdirSync(CLI).filter((file) => file.endsWith('.cjs'));
    expect(built.sort()).toEqual(['main.cjs', ...names.map((name) => `${name}.cjs`)].sort());
    for (const file of built) expect(read(file)).not.toMatch(/\bimport\(/);
    const required = [...read('main.cjs').matchAll(/require\("\.\/([a-z-]+)\.cjs"\)/g)].map((m) => m[1]);
    expect(new Set(required)).toEqual(new Set(names));
  });

  it('load main.cjs with a code cache that this node accepts', () => {
    const probe = `const { loadCli } = require(${JSON.stringify(path.join(ROOT, 'bin', 'load-cli.cjs'))});
      process.stdout.write(String(loadCli().script.cachedDataRejected));`;
    const env = { ...process.env, NODE_OPTIONS: '' };
    expect(execFileSync(process.execPath, ['-e', probe], { env, encoding: 'utf8' })).toBe('false');
  });
});
