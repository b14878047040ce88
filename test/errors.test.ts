import { describe, expect, it } from 'vitest';
import { brandError, isRequestError, isStoppedError, RequestError, StoppedError } from '../src/errors.js';
import { isRefusal, Refusal } from '../src/shell/refuse.js';

// The command line's bundles each carry their own copy of these classes (scripts/build-cli.mjs):
// an error is known by its brands, which every copy shares.
describe('error brands', () => {
  it('know each kind, and a subclass keeps its parent brand', () => {
    const request = new RequestError('usage.x', 'bad');
    const refusal = new Refusal('syntax.x', 'for loop', 1, 'refused');
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
