import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { brandError, isRequestError, isStoppedError, RequestError, StoppedError } from '../src/errors.js';
import { REQUEST_ERROR_CODES } from '../src/model/request-error-codes.js';
import { isRefusal, Refusal } from '../src/shell/refuse.js';
import { ROOT } from './helpers/index.js';

// The command line's bundles each carry their own copy of these classes (scripts/build-cli.mjs):
// an error is known by its brands, which every copy shares.
describe('error brands', () => {
  it('know each kind, and a subclass keeps its parent brand', () => {
    const request = new RequestError('usage.value', 'bad');
    const refusal = new Refusal('syntax.select', 'for loop', 1, 'refused');
    const stopped = new StoppedError('stopped', 130);
    expect([isRequestError(request), isRefusal(request), isStoppedError(request)]).toEqual([
      true,
      false,
      false,
    ]);
    expect([isRequestError(refusal), isRefusal(refusal), isStoppedError(refusal)]).toEqual([
      true,
      true,
      false,
    ]);
    expect([isRequestError(stopped), isRefusal(stopped), isStoppedError(stopped)]).toEqual([
      false,
      false,
      true,
    ]);
    expect([isRequestError(new Error('x')), isRequestError(null), isRequestError('request')]).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('recognise an error made by another copy of the class', () => {
    class OtherCopy extends Error {}
    const foreign = new OtherCopy('from another bundle');
    brandError(foreign, 'request');
    expect(foreign instanceof RequestError).toBe(false);
    expect(isRequestError(foreign)).toBe(true);
  });
});

// The codes are public (`error.code` under --json): the list, the JSON Schema of the error document
// and the table in docs/exit-codes.md name the same codes, and each is one something can throw.
describe('request-error codes', () => {
  const sorted = [...REQUEST_ERROR_CODES].sort();

  it('are listed once each, in the JSON Schema of the --json error document', () => {
    expect(new Set(REQUEST_ERROR_CODES).size).toBe(REQUEST_ERROR_CODES.length);
    const schema = JSON.parse(readFileSync(join(ROOT, 'docs/schema/request-error.schema.json'), 'utf8'));
    expect([...schema.properties.error.properties.code.enum].sort()).toEqual(sorted);
    const check = spawnSync(process.execPath, ['scripts/gen-error-schema.mjs', '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  it('are the rows of the table in docs/exit-codes.md', () => {
    const doc = readFileSync(join(ROOT, 'docs/exit-codes.md'), 'utf8');
    const rows = [...doc.matchAll(/^\| `([a-z]+\.[A-Za-z0-9-]+)` \| /gm)].map((match) => match[1]);
    expect([...rows].sort()).toEqual(sorted);
  });

  it('are each written somewhere in src/ (commander names its own)', () => {
    const sources = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('request-error-codes.ts'))
      .map((file) => readFileSync(join(ROOT, 'src', file), 'utf8'))
      .join('\n');
    const unused = REQUEST_ERROR_CODES.filter(
      (code) => !code.startsWith('commander.') && !sources.includes(`'${code}'`),
    );
    expect(unused).toEqual([]);
  });
});
