import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teardownFixture as fixture, waitFor } from '../helpers/index.js';

let dir = '';
let parentScript = '';

// The fixture imports the TypeScript watchdog, which plain Node 20 cannot load: bundle it once.
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'safe-run-file-guard-'));
  parentScript = join(dir, 'file-guard-parent.mjs');
  await build({
    entryPoints: [fixture('file-guard-parent.ts')],
    outfile: parentScript,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the watchdog guards files', () => {
  it('removes a watched file when its parent is SIGKILLed, whatever bytes its name has, and keeps a forgotten one', async () => {
    const watched = join(dir, '.out 50%\n\\x.staged');
    const forgotten = join(dir, 'published.txt');
    const parent = spawn(process.execPath, [parentScript, watched, forgotten], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let line = '';
    parent.stdout.on('data', (chunk: Buffer) => {
      line += chunk.toString();
    });
    await waitFor('the fixture to create its files', () => line.includes('\n'), 20_000);
    const { watchdog } = JSON.parse(line) as { watchdog: number };
    expect(existsSync(watched)).toBe(true);
    parent.kill('SIGKILL');
    await waitFor('the watched file to be removed', () => !existsSync(watched), 20_000);
    await waitFor('the watchdog to exit', () => !existsSync(`/proc/${watchdog}`), 20_000);
    expect(readFileSync(forgotten, 'utf8')).toBe('published');
  });
});
