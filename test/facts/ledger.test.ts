import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProgram } from '../../src/engine/resolve/resolve-program.js';
import {
  clearFacts,
  describeFact,
  notStartedEntry,
  openFactsFor,
  readFacts,
  readLedger,
  recordNotStarted,
  recordStarted,
} from '../../src/facts/ledger.js';
import { putFile, type Scratch, scratchDir } from '../helpers/index.js';

let scratch: Scratch;

const savedTz = process.env.TZ;

beforeAll(() => {
  // describeFact prints local times; pin them.
  process.env.TZ = 'UTC';
  scratch = scratchDir('safe-run-facts-');
});

afterAll(() => {
  process.env.TZ = savedTz;
  scratch.remove();
});

const freshDir = () => scratch.fresh();
const put = (dir: string, name: string, content: string | Buffer, mode = 0o755) =>
  putFile(dir, name, content, mode);

// What a run does when a stage cannot start: resolve for real, then record the outcome.
function failToStart(ledger: string, program: string, env: Record<string, string>, cwd: string, at?: string) {
  const resolution = resolveProgram(program, env, cwd);
  if (resolution.ok) throw new Error(`${program} unexpectedly resolved to ${resolution.path}`);
  const entry = notStartedEntry(program, resolution, env, cwd);
  expect(recordNotStarted(ledger, at === undefined ? entry : { ...entry, at })).toBeNull();
  return resolution;
}

describe('recording programs that could not be started', () => {
  it('keeps one fact per cause, with the code, what lookup found, PATH and cwd', () => {
    const dir = freshDir();
    const ledger = join(dir, 'state', 'facts.jsonl');
    mkdirSync(join(dir, 'sub'));
    put(dir, 'plain.sh', '#!/bin/sh\n', 0o644);
    put(dir, 'py.sh', '#!/opt/missing/python\n');
    put(dir, 'envpy.sh', '#!/usr/bin/env missing-python\n');
    put(dir, 'blob', Buffer.from([0x41, 0x00, 0x42, 0x0a]));
    const env = { PATH: '/usr/bin:/bin', HOME: dir };
    const cases = [
      ['no-such-tool-xyz', 'ENOENT', 'not-on-path', 'not on PATH'],
      ['cd', 'ENOENT', 'builtin', 'a shell builtin'],
      ['./missing.sh', 'ENOENT', 'no-such-file', 'no such file'],
      ['./sub', 'EISDIR', 'is-directory', 'a directory'],
      ['./plain.sh', 'EACCES', 'not-executable', 'not executable'],
      ['./py.sh', 'EBADINTERP', 'missing-interpreter', 'interpreter /opt/missing/python missing'],
      ['./envpy.sh', 'EBADINTERP', 'missing-interpreter', 'interpreter missing-python missing'],
      ['./blob', 'ENOEXEC', 'bad-format', 'not a program this machine can run'],
    ] as const;
    for (const [program] of cases) failToStart(ledger, program, env, dir);

    const facts = readFacts(ledger);
    expect(facts.map((fact) => [fact.program, fact.code, fact.cause])).toEqual(
      cases.map(([program, code, cause]) => [program, code, cause]),
    );
    for (const [index, fact] of facts.entries()) {
      expect(fact).toMatchObject({ count: 1, cwd: dir, pathVar: '/usr/bin:/bin', resolvedAt: null });
      expect(describeFact(fact)).toContain(`(${fact.code}: ${cases[index]![3]}`);
    }
    expect(facts.find((fact) => fact.program === './plain.sh')!.found).toBe(join(dir, 'plain.sh'));
    expect(facts.find((fact) => fact.program === 'no-such-tool-xyz')!.found).toBeNull();
  });

  it('creates the parent directories private (0700) and the ledger 0600', () => {
    const dir = freshDir();
    const ledger = join(dir, 'a', 'b', 'facts.jsonl');
    failToStart(ledger, 'no-such-tool-xyz', { PATH: '/usr/bin' }, dir);
    expect(statSync(join(dir, 'a')).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'a', 'b')).mode & 0o777).toBe(0o700);
    expect(statSync(ledger).mode & 0o777).toBe(0o600);
  });

  it('returns a warning instead of throwing when the ledger cannot be written or read', () => {
    const dir = freshDir();
    const blocker = put(dir, 'not-a-dir', 'x', 0o644);
    const resolution = resolveProgram('no-such-tool-xyz', { PATH: '/usr/bin' }, dir);
    if (resolution.ok) throw new Error('unexpected');
    const ledger = join(blocker, 'facts.jsonl');
    const warning = recordNotStarted(ledger, notStartedEntry('no-such-tool-xyz', resolution, {}, dir));
    expect(warning).toContain(`facts ledger ${ledger}: cannot append (`);
    expect(warning).toContain('this fact was not recorded');
    const read = readLedger(dir);
    expect(read.facts).toEqual([]);
    expect(read.warnings[0]).toContain('cannot read (EISDIR');
  });

  it('keeps every line under 4 KiB by shortening long fields, and says so', () => {
    const dir = freshDir();
    const ledger = join(dir, 'facts.jsonl');
    const longPath = Array.from(
      { length: 400 },
      (_, i) => `/opt/tool-${i}/with-a-rather-long-vendor-directory/bin`,
    ).join(':');
    failToStart(ledger, 'no-such-tool-xyz', { PATH: longPath }, dir);
    const line = readFileSync(ledger, 'utf8');
    expect(Buffer.byteLength(line)).toBeLessThan(4096);
    expect(JSON.parse(line)).toMatchObject({ truncated: true, event: 'not-started' });
    const [fact] = readFacts(ledger);
    expect(fact!.pathVar).toMatch(/^\/opt\/tool-0\/with-a-rather-long-vendor-directory\/bin:.*more\]$/);
  });
});

describe('one program written two ways', () => {
  it('is one fact, described as it was last written with the cwd it was written in', () => {
    const dir = freshDir();
    const ledger = join(dir, 'facts.jsonl');
    mkdirSync(join(dir, 'sub'));
    const env = { PATH: '/usr/bin:/bin', HOME: dir };
    failToStart(ledger, './build.sh', env, dir, '2026-12-03T10:00:00.000Z');
    failToStart(ledger, '../build.sh', env, join(dir, 'sub'), '2026-12-03T10:05:00.000Z');
    const facts = readFacts(ledger);
    expect(facts).toHaveLength(1);
    expect(facts[0]).toMatchObject({ program: '../build.sh', cwd: join(dir, 'sub'), count: 2 });
  });
});

describe('resolving facts', () => {
  it('tells the story of seed 002 in miniature: 13 failures, then the program starts', () => {
    const dir = freshDir();
    const ledger = join(dir, 'facts.jsonl');
    mkdirSync(join(dir, 'bin'));
    const env = { PATH: `${dir}/bin:/usr/bin:/bin`, HOME: dir };
    // 13 runs over 1 h 42 min, as in the seed.
    const start = Date.parse('2025-06-01T17:21:00Z');
    const at = (minutes: number) => new Date(start + minutes * 60_000).toISOString();
    for (let run = 0; run < 13; run++) {
      expect(openFactsFor(ledger, ['poetry'], dir).map((fact) => fact.count)).toEqual(run === 0 ? [] : [run]);
      failToStart(ledger, 'poetry', env, dir, at(run * 8.5));
    }
    const linesBefore = readFileSync(ledger, 'utf8').split('\n').length;

    // The 14th run: poetry is now on PATH, so it resolves and really starts.
    put(dir, 'bin/poetry', '#!/bin/sh\necho "Poetry (version 1.8.3)"\n');
    const known = openFactsFor(ledger, ['poetry'], dir);
    expect(known).toHaveLength(1);
    const resolution = resolveProgram('poetry', env, dir);
    if (!resolution.ok) throw new Error(resolution.message);
    const child = spawnSync(resolution.path, ['--version'], { env, cwd: dir, encoding: 'utf8' });
    expect(child.status).toBe(0);
    expect(
      recordStarted(
        ledger,
        { program: 'poetry', cwd: dir, resolvedPath: resolution.path, at: at(102) },
        known,
      ),
    ).toBeNull();

    expect(readFileSync(ledger, 'utf8').split('\n').length).toBe(linesBefore + 1);
    expect(readFacts(ledger)).toEqual([]);
    const [fact] = readFacts(ledger, { all: true });
    expect(fact).toMatchObject({
      program: 'poetry',
      code: 'ENOENT',
      cause: 'not-on-path',
      count: 13,
      firstSeen: '2025-06-01T17:21:00.000Z',
      lastSeen: at(12 * 8.5),
      resolvedAt: at(102),
      resolvedPath: join(dir, 'bin', 'poetry'),
    });
    expect(describeFact(fact!, new Date(at(102)))).toBe(
      `\`poetry\` could not be started 13 times since 17:21 (ENOENT: not on PATH); it started at 19:03 (${dir}/bin/poetry)`,
    );
  });

  it('appends nothing when a program starts and no fact about it is open', () => {
    const dir = freshDir();
    const ledger = join(dir, 'facts.jsonl');
    expect(recordStarted(ledger, { program: 'sh', cwd: dir, resolvedPath: '/bin/sh' })).toBeNull();
    expect(existsSync(ledger)).toBe(false);
    failToStart(ledger, 'no-such-tool-xyz', { PATH: '/usr/bin' }, dir);
    const size = statSync(ledger).size;
    expect(recordStarted(ledger, { program: 'sh', cwd: dir, resolvedPath: '/bin/sh' })).toBeNull();
    // What the run already read decides, without reading again.
    expect(
      recordStarted(ledger, { program: 'no-such-tool-xyz', cwd: dir, resolvedPath: '/x' }, []),
    ).toBeNull();
    expect(statSync(ledger).size).toBe(size);
  });

  it('opens a new fact when a program that was resolved fails again', () => {
    const dir = freshDir();
    const ledger = join(dir, 'facts.jsonl');
    const env = { PATH: '/usr/bin' };
    failToStart(ledger, 'no-such-tool-xyz', env, dir);
    failToStart(ledger, 'no-such-tool-xyz', env, dir);
    recordStarted(ledger, { program: 'no-such-tool-xyz', cwd: dir, resolvedPath: '/opt/x' });
    failToStart(ledger, 'no-such-tool-xyz', env, dir);
    const all = readFacts(ledger, { all: true });
    expect(all.map((fact) => [fact.count, fact.resolvedPath])).toEqual([
      [2, '/opt/x'],
      [1, null],
    ]);
    expect(readFacts(ledger).map((fact) => fact.count)).toEqual([1]);
  });

  it('treats a program named by a relative path as the file it names', () => {
    const a = freshDir();
    const b = freshDir();
    const ledger = join(freshDir(), 'relative.jsonl');
    failToStart(ledger, './build.sh', { PATH: '/usr/bin' }, a);
    failToStart(ledger, './build.sh', { PATH: '/usr/bin' }, b);
    expect(readFacts(ledger)).toHaveLength(2);
    expect(openFactsFor(ledger, ['./build.sh'], a).map((fact) => fact.cwd)).toEqual([a]);
    recordStarted(ledger, { program: './build.sh', cwd: a, resolvedPath: join(a, 'build.sh') });
    expect(readFacts(ledger).map((fact) => fact.cwd)).toEqual([b]);
  });
});

// A ledger of one fact about tool-a, then a garbage line and a torn record with a whole one glued on.
function damagedLedger(): string {
  const dir = freshDir();
  const ledger = join(dir, 'facts.jsonl');
  failToStart(ledger, 'tool-a', { PATH: '/usr/bin' }, dir);
  const good = readFileSync(ledger, 'utf8');
  appendFileSync(ledger, 'garbage that is not json\n');
  appendFileSync(ledger, `${good.slice(0, 40)}${good}`);
  return ledger;
}

describe('reading a damaged ledger', () => {
  it('skips and counts torn or garbage lines, and recovers a record glued behind a torn one', () => {
    const ledger = damagedLedger();
    appendFileSync(ledger, '{"v":1,"event":"not-started","at":"2025-01-01T00:00:00Z"}\n');
    const read = readLedger(ledger);
    expect(read.skipped).toBe(3);
    expect(read.facts).toHaveLength(1);
    expect(read.facts[0]).toMatchObject({ program: 'tool-a', count: 2 });
    expect(read.warnings).toEqual([`facts ledger ${ledger}: skipped 3 damaged lines`]);
  });

  it('does not count a last line still being written as damaged (a concurrent append seen half-way)', () => {
    const dir = freshDir();
    const ledger = join(dir, 'facts.jsonl');
    failToStart(ledger, 'tool-a', { PATH: '/usr/bin' }, dir);
    const good = readFileSync(ledger, 'utf8');
    appendFileSync(ledger, good.slice(0, 30));
    const read = readLedger(ledger);
    expect(read.skipped).toBe(0);
    expect(read.warnings).toEqual([]);
    expect(read.facts[0]).toMatchObject({ program: 'tool-a', count: 1 });
    // Once the next record lands behind it, the torn line is damage, counted, and the record is kept.
    appendFileSync(ledger, good);
    expect(readLedger(ledger)).toMatchObject({ skipped: 1, facts: [{ program: 'tool-a', count: 2 }] });
  });

  it('reads a missing ledger as empty, without warnings', () => {
    expect(readLedger(join(scratch.root, 'never-written.jsonl'))).toEqual({
      facts: [],
      skipped: 0,
      warnings: [],
    });
  });
});

describe('clearFacts', () => {
  it('forgets every fact', () => {
    const dir = freshDir();
    const ledger = join(dir, 'facts.jsonl');
    failToStart(ledger, 'tool-a', { PATH: '/usr/bin' }, dir);
    expect(clearFacts(ledger)).toBeNull();
    expect(readFacts(ledger, { all: true })).toEqual([]);
    expect(clearFacts(join(dir, 'missing.jsonl'))).toBeNull();
  });
});

// Every step of a text reads the ledger; a read is kept while the file is unchanged. What another
// process writes meanwhile must still be seen.
describe('reading the ledger again', () => {
  it('sees a fact another process appended after the last read', () => {
    const dir = freshDir();
    const ledger = join(dir, 'facts.jsonl');
    failToStart(ledger, 'tool-a', { PATH: '/usr/bin' }, dir);
    expect(readFacts(ledger).map((fact) => fact.program)).toEqual(['tool-a']);
    const line = readFileSync(ledger, 'utf8').replaceAll('tool-a', 'tool-b');
    const other = spawnSync('/bin/sh', ['-c', 'printf %s "$1" >> "$2"', 'sh', line, ledger]);
    expect(other.status).toBe(0);
    expect(readFacts(ledger).map((fact) => fact.program)).toEqual(['tool-a', 'tool-b']);
  });

  it('sees a ledger cleared and written again to the very same size', () => {
    const dir = freshDir();
    const ledger = join(dir, 'facts.jsonl');
    failToStart(ledger, 'tool-a', { PATH: '/usr/bin' }, dir);
    const before = readFileSync(ledger, 'utf8');
    expect(readFacts(ledger).map((fact) => fact.program)).toEqual(['tool-a']);
    expect(clearFacts(ledger)).toBeNull();
    appendFileSync(ledger, before.replaceAll('tool-a', 'tool-z'));
    expect(statSync(ledger).size).toBe(before.length);
    expect(readFacts(ledger).map((fact) => fact.program)).toEqual(['tool-z']);
  });

  it('hands out the same read, frozen, while the file is unchanged', () => {
    const dir = freshDir();
    const ledger = join(dir, 'facts.jsonl');
    failToStart(ledger, 'tool-a', { PATH: '/usr/bin' }, dir);
    const first = readLedger(ledger);
    const again = readLedger(ledger);
    expect(again).toBe(first);
    expect(Object.isFrozen(again.facts[0])).toBe(true);
    const other = join(dir, 'other.jsonl');
    failToStart(other, 'tool-b', { PATH: '/usr/bin' }, dir);
    expect(readFacts(other).map((fact) => fact.program)).toEqual(['tool-b']);
    expect(readLedger(ledger).facts).toEqual(first.facts);
  });
});

// A run reads only the lines that may be about its own programs.
describe('reading the facts about some programs only', () => {
  it('finds a file named by another relative path elsewhere, and nothing about other programs', () => {
    const dir = freshDir();
    const ledger = join(dir, 'facts.jsonl');
    mkdirSync(join(dir, 'sub'));
    put(dir, 'tool.sh', '#!/opt/missing/python\n');
    failToStart(ledger, './tool.sh', { PATH: '/usr/bin' }, dir);
    failToStart(ledger, 'other-tool-xyz', { PATH: '/usr/bin' }, dir);
    failToStart(ledger, 'tool.sh', { PATH: '/usr/bin' }, dir);
    const read = readLedger(ledger, ['../tool.sh']);
    expect(read.facts.map((fact) => fact.program)).toEqual(['./tool.sh', 'tool.sh']);
    const sub = join(dir, 'sub');
    expect(openFactsFor(ledger, ['../tool.sh'], sub).map((fact) => fact.program)).toEqual(['./tool.sh']);
  });

  it('counts damaged lines among those it does not parse', () => {
    const ledger = damagedLedger();
    const read = readLedger(ledger, ['tool-b']);
    expect(read.facts).toEqual([]);
    expect(read.skipped).toBe(2);
    expect(read.warnings).toEqual([`facts ledger ${ledger}: skipped 2 damaged lines`]);
  });

  it('reads every line for a name too long to be sure of, as the ledger may have shortened it', () => {
    const dir = freshDir();
    const ledger = join(dir, 'facts.jsonl');
    const long = `tool-${'x'.repeat(500)}`;
    // A line over 3,800 bytes has its long fields shortened, the program's name among them.
    failToStart(ledger, long, { PATH: `/usr/bin${':/no/such/dir'.repeat(300)}` }, dir);
    const [fact] = readLedger(ledger, [long]).facts;
    expect(fact?.program.startsWith('tool-xxx')).toBe(true);
    expect(fact?.program.length).toBeLessThan(long.length);
  });
});
