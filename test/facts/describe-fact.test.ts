import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fact } from '../../src/facts/ledger.js';
import { describeFact } from '../../src/facts/ledger.js';

const savedTz = process.env.TZ;

beforeAll(() => {
  process.env.TZ = 'UTC';
});

afterAll(() => {
  process.env.TZ = savedTz;
});

function fact(fields: Partial<Fact>): Fact {
  return {
    program: 'poetry',
    cwd: '/work',
    found: null,
    code: 'ENOENT',
    cause: 'not-on-path',
    exitCode: 127,
    message: '`poetry` was not found on PATH (searched 6 directories); install it or fix PATH',
    interpreter: null,
    pathVar: '/usr/bin:/bin',
    firstSeen: '2025-06-01T17:21:00.000Z',
    lastSeen: '2025-06-01T19:03:00.000Z',
    count: 13,
    resolvedAt: null,
    resolvedPath: null,
    ...fields,
  };
}

describe('describeFact', () => {
  const today = new Date('2025-06-01T20:00:00Z');

  it('says how often and since when a program could not be started, and why', () => {
    expect(describeFact(fact({}), today)).toBe(
      '`poetry` could not be started 13 times since 17:21 (ENOENT: not on PATH)',
    );
  });

  it('says "once" for a single sighting and adds the date for another day', () => {
    expect(describeFact(fact({ count: 1 }), new Date('2025-06-03T09:00:00Z'))).toBe(
      '`poetry` could not be started once, at 2025-06-01 17:21 (ENOENT: not on PATH)',
    );
  });

  it('names a missing interpreter, showing a carriage return', () => {
    const missing = fact({
      code: 'EBADINTERP',
      cause: 'missing-interpreter',
      interpreter: '/bin/sh\r',
      count: 2,
    });
    expect(describeFact(missing, today)).toBe(
      '`poetry` could not be started 2 times since 17:21 (EBADINTERP: interpreter /bin/sh\\r missing)',
    );
    const unusable = fact({
      code: 'EBADINTERP',
      cause: 'missing-interpreter',
      interpreter: '/etc/passwd',
      exitCode: 126,
    });
    expect(describeFact(unusable, today)).toContain('(EBADINTERP: interpreter /etc/passwd not usable)');
  });

  it('says when a resolved fact started again and what ran', () => {
    const resolved = fact({ resolvedAt: '2025-06-01T19:05:00.000Z', resolvedPath: '/usr/local/bin/poetry' });
    expect(describeFact(resolved, today)).toBe(
      '`poetry` could not be started 13 times since 17:21 (ENOENT: not on PATH); it started at 19:05 (/usr/local/bin/poetry)',
    );
  });
});
