import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLedger } from '../../src/facts/ledger.js';

// 20 real node processes append to one ledger at the same moment; every line must arrive whole.

const WRITERS = 20;
const RECORDS = 150;
const fixture = join(import.meta.dirname, '..', 'fixtures', 'facts', 'append-records.mjs');

let root: string;
let bundle: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'safe-run-writers-'));
  bundle = join(root, 'ledger.mjs');
  // The children run the real ledger code, bundled from the TypeScript source.
  buildSync({
    entryPoints: [join(import.meta.dirname, '..', '..', 'src', 'facts', 'ledger.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: bundle,
    logLevel: 'silent',
  });
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

async function waitFor(test: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('many writers at once', () => {
  it('loses and tears no record when 20 processes append concurrently', async () => {
    const ledger = join(root, 'state', 'facts.jsonl');
    const barrier = join(root, 'barrier');
    mkdirSync(barrier);
    const children = Array.from({ length: WRITERS }, (_, writer) =>
      run([fixture, bundle, ledger, String(writer), String(RECORDS), barrier]),
    );
    const ready = () => Array.from({ length: WRITERS }, (_, w) => existsSync(join(barrier, `ready-${w}`)));
    await waitFor(() => ready().every(Boolean), 'every writer to be ready');
    writeFileSync(join(barrier, 'go'), '');
    const results = await Promise.all(children);
    expect(results.filter((result) => result.code !== 0)).toEqual([]);

    const text = readFileSync(ledger, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.slice(0, -1).split('\n');
    expect(lines).toHaveLength(WRITERS * RECORDS);
    const seen = new Set<string>();
    for (const line of lines) {
      const record = JSON.parse(line) as { event: string; message: string };
      expect(record.event).toBe('not-started');
      const match = /^writer (\d+) record (\d+) x*$/.exec(record.message);
      expect(match).not.toBeNull();
      seen.add(`${match![1]}/${match![2]}`);
    }
    expect(seen.size).toBe(WRITERS * RECORDS);

    const read = readLedger(ledger);
    expect(read.skipped).toBe(0);
    expect(read.facts.map((fact) => [fact.program, fact.count]).sort()).toEqual([
      ['prog-0', (WRITERS / 4) * RECORDS],
      ['prog-1', (WRITERS / 4) * RECORDS],
      ['prog-2', (WRITERS / 4) * RECORDS],
      ['prog-3', (WRITERS / 4) * RECORDS],
    ]);
  });

  it('never reports a damaged line to a reader that reads while others append', async () => {
    const ledger = join(root, 'reading', 'facts.jsonl');
    const barrier = join(root, 'barrier-reading');
    mkdirSync(barrier);
    const children = Array.from({ length: WRITERS }, (_, writer) =>
      run([fixture, bundle, ledger, String(writer), String(RECORDS), barrier]),
    );
    const ready = () => Array.from({ length: WRITERS }, (_, w) => existsSync(join(barrier, `ready-${w}`)));
    await waitFor(() => ready().every(Boolean), 'every writer to be ready');
    writeFileSync(join(barrier, 'go'), '');
    let finished = false;
    const all = Promise.all(children).finally(() => {
      finished = true;
    });
    // Reads as often as it can while the writers append: a record caught half-written (its write(2)
    // crosses a page, so the file grows in two steps) is not a damaged line.
    const warnings = new Set<string>();
    let reads = 0;
    while (!finished) {
      for (const warning of readLedger(ledger).warnings) warnings.add(warning);
      reads += 1;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const results = await all;
    expect(results.filter((result) => result.code !== 0)).toEqual([]);
    expect(reads).toBeGreaterThan(0);
    expect([...warnings]).toEqual([]);
    expect(readLedger(ledger).facts.reduce((sum, fact) => sum + fact.count, 0)).toBe(WRITERS * RECORDS);
  });
});
