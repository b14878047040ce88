import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { trampolineFor } from '../../src/engine/raw-environment.js';
import { bashPath } from '../../src/shell/bash-path.js';
import { FIXTURES } from '../helpers/cli.js';
import { putFile, type Scratch, scratchDir } from '../helpers/index.js';

// What safe-run keeps for the life of its process must hold for a process that serves many runs (the
// MCP server, a library caller): each reading is kept only for the input it was made from, and a
// failed reading is not kept at all.
// Made by the first test that needs it, so that a run filtered to none of them leaves nothing.
let scratch: Scratch | null = null;
const work = () => (scratch ??= scratchDir('sr-process-caches-'));
afterAll(() => scratch?.remove());

describe('bashPath()', () => {
  it('follows the PATH of the moment, in one process', () => {
    const first = work().fresh();
    const second = work().fresh();
    const bashIn = (dir: string) => putFile(dir, 'bash', '#!/bin/sh\n', 0o755);
    const [inFirst, inSecond] = [bashIn(first), bashIn(second)];
    const saved = process.env.PATH;
    try {
      process.env.PATH = first;
      expect(bashPath()).toBe(inFirst);
      process.env.PATH = `${second}:${first}`;
      expect(bashPath()).toBe(inSecond);
      process.env.PATH = first;
      expect(bashPath()).toBe(inFirst);
    } finally {
      process.env.PATH = saved;
    }
    expect(bashPath()).not.toBe(inFirst);
  });
});

describe("a stage's environment bytes", () => {
  // The process's raw environment is read once; whether an entry is sent as its bytes is decided
  // per run, by the run's own value.
  const raw = new Map([['NAME', Buffer.from('NAME=caf\xe9', 'latin1')]]);
  it.skipIf(!existsSync('/usr/bin/perl'))(
    'are the raw ones only while the run still has the value Node decoded from them',
    () => {
      expect(trampolineFor('/bin/true', ['true'], { NAME: 'caf\ufffd' }, raw)).not.toBeNull();
      expect(trampolineFor('/bin/true', ['true'], { NAME: 'changed' }, raw)).toBeNull();
      expect(trampolineFor('/bin/true', ['true'], {}, raw)).toBeNull();
    },
  );
});

describe('a moment without descriptors', () => {
  it('is not remembered: own group, raw environment and pid window are read again afterwards', async () => {
    const script = path.join(work().fresh(), 'exhausted-fds.mjs');
    await build({
      entryPoints: [path.join(FIXTURES, 'caches', 'exhausted-fds.ts')],
      outfile: script,
      bundle: true,
      platform: 'node',
      format: 'esm',
      logLevel: 'silent',
    });
    // Not a group leader (a group leader's pid is its group: the fallback would be right by luck),
    // 64 descriptors at most, and one environment entry that is not UTF-8.
    const command = `ulimit -n 64 && SR_RAW=$'caf\\xe9' exec "${process.execPath}" "${script}"`;
    const child = spawn('bash', ['--norc', '-c', command], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    const seen = JSON.parse(out);
    expect(seen.failure).toBe('EMFILE');
    expect(seen.pgid).not.toBe(seen.pid);
    expect(seen.exhausted).toEqual({ window: false, rawNames: [], refusesOwnGroup: false });
    expect(seen.recovered).toEqual({ window: true, rawNames: ['SR_RAW'], refusesOwnGroup: true });
  });
});
