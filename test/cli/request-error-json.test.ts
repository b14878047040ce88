import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, validate } from '../helpers/index.js';

const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs/schema/request-error.schema.json'), 'utf8'));

// Real refusals under --json: each prints one document on stdout that the published schema accepts,
// with the code and column the request deserves, and exits 125.
const cases: { args: string[]; env?: Record<string, string>; code: string; column: number | null }[] = [
  { args: ['--timeout', 'soon', '--', 'true'], code: 'usage.duration', column: null },
  { args: ['--polcy', 'last', '--', 'true'], code: 'commander.unknownOption', column: null },
  { args: ['--policy', 'bogus', '--', 'true'], code: 'commander.invalidArgument', column: null },
  { args: [], code: 'usage.no-pipeline', column: null },
  // An empty program name is bad input, as in a spec file (it was a 127 "environment problem").
  { args: ['--', '', 'x'], code: 'usage.no-pipeline', column: null },
  { args: ['--cwd', '/nonexistent-safe-run-dir', '--', 'pwd'], code: 'usage.cwd', column: null },
  { args: ['-f', 'no-such-spec.yaml'], code: 'spec.not-found', column: null },
  { args: ['-c', 'select x in a; do :; done'], code: 'syntax.select', column: 1 },
  { args: ['-c', 'echo "open'], code: 'syntax.unterminated', column: 6 },
  { args: ['-c', 'f=<(echo b)'], code: 'syntax.process-substitution', column: 3 },
  { args: ['--', 'true'], env: { SAFE_RUN_OPTIONS: '-c x' }, code: 'usage.env-options', column: null },
];

describe('the --json document of a refused request', () => {
  it.each(cases)('matches the schema: $code', async ({ args, env, code, column }) => {
    const result = await runCli(['--json', '--no-facts', ...args], env ? { env } : {});
    expect(result.code).toBe(125);
    const document = JSON.parse(result.stdout);
    expect(validate(document, schema)).toEqual([]);
    expect(document.error.code).toBe(code);
    expect(document.error.column).toBe(column);
    expect(result.stderr).toBe(`safe-run: ${document.error.message}\n`);
    expect(document.reason).toBe(`refused before anything ran: ${document.error.message}`);
    expect(document.next).toMatch(/^nothing ran: .*, then run it again$/);
    if (column !== null) expect(document.next).toContain(`the text at column ${column}`);
  });

  it('is one line under --json compact, and still matches', async () => {
    const result = await runCli(['--json', 'compact', '--timeout', 'soon', '--', 'true']);
    expect(result.code).toBe(125);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
    const document = JSON.parse(result.stdout);
    expect(validate(document, schema)).toEqual([]);
    // The two fields a harness reads first in every compact answer.
    expect(document.reason).toMatch(/^refused before anything ran: --timeout: "soon" is not a duration/);
    expect(document.next).toContain('fix the command line');
  });

  it('is refused by the schema when its code is not one of the list', () => {
    const made = {
      schemaVersion: 1,
      ok: false,
      exitCode: 125,
      reason: 'refused before anything ran: x',
      next: 'nothing ran: fix what the reason names, then run it again',
      error: { code: 'usage.made-up', column: null, message: 'x' },
    };
    expect(validate(made, schema)).toEqual(['$.error.code: usage.made-up not in enum']);
  });
});
