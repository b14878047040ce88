import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchPath } from '../../../src/engine/resolve/search-path.js';

// The two PATH searches preflight imitates: bash's own, and glibc execvp's (what `/usr/bin/env` does).
// test/engine/resolve/resolve-program.test.ts checks the bash side against real bash.

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'safe-run-search-'));
  for (const sub of ['a', 'b', 'c/tool', 'home/bin']) mkdirSync(join(dir, sub), { recursive: true });
  writeFileSync(join(dir, 'a/tool'), '#!/bin/sh\n');
  chmodSync(join(dir, 'a/tool'), 0o644);
  writeFileSync(join(dir, 'b/tool'), '#!/bin/sh\n');
  chmodSync(join(dir, 'b/tool'), 0o755);
  writeFileSync(join(dir, 'home/bin/mine'), '#!/bin/sh\n');
  chmodSync(join(dir, 'home/bin/mine'), 0o755);
  symlinkSync('/gone/tool', join(dir, 'a/broken'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('searchPath', () => {
  it('finds the first executable match in either mode, marking absolute entries as not relative', () => {
    for (const mode of ['bash', 'execvp'] as const) {
      expect(searchPath('tool', `${dir}/a:${dir}/b`, dir, undefined, mode)).toEqual({
        kind: 'found',
        path: join(dir, 'b/tool'),
        entry: `${dir}/b`,
        relative: false,
        tilde: false,
      });
    }
  });

  it('marks a match through a relative or empty entry as relative, resolved from cwd', () => {
    expect(searchPath('tool', 'b', dir, undefined, 'bash')).toMatchObject({
      kind: 'found',
      path: join(dir, 'b/tool'),
      entry: 'b',
      relative: true,
    });
    expect(searchPath('tool', ':/usr/bin', join(dir, 'b'), undefined, 'bash')).toMatchObject({
      kind: 'found',
      entry: '',
      relative: true,
    });
  });

  it('expands ~ only in bash mode', () => {
    const home = join(dir, 'home');
    expect(searchPath('mine', '~/bin', dir, home, 'bash')).toMatchObject({ kind: 'found', tilde: true });
    expect(searchPath('mine', '~/bin', dir, home, 'execvp')).toMatchObject({ kind: 'none' });
  });

  it('lets a directory as the first match end the search as not found in bash mode only', () => {
    expect(searchPath('tool', `${dir}/c:${dir}/a`, dir, undefined, 'bash')).toEqual({
      kind: 'none',
      searched: 2,
      brokenLinks: [],
      directory: join(dir, 'c/tool'),
    });
    expect(searchPath('tool', `${dir}/c:${dir}/a`, dir, undefined, 'execvp')).toEqual({
      kind: 'denied',
      path: join(dir, 'c/tool'),
    });
  });

  it('reports the first match that cannot run as denied', () => {
    expect(searchPath('tool', `${dir}/a`, dir, undefined, 'bash')).toEqual({
      kind: 'denied',
      path: join(dir, 'a/tool'),
    });
  });

  it('counts distinct directories searched and notes broken symlinks', () => {
    expect(searchPath('broken', `${dir}/a:${dir}/b:${dir}/a`, dir, undefined, 'bash')).toEqual({
      kind: 'none',
      searched: 2,
      brokenLinks: [join(dir, 'a/broken')],
      directory: null,
    });
  });
});
