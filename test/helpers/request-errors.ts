import { RequestError } from '../../src/errors.js';

// The RequestError a call throws; fails the test when it returns or throws anything else.
export function requestErrorOf(call: () => unknown): RequestError {
  try {
    call();
  } catch (error) {
    if (error instanceof RequestError) return error;
    throw error;
  }
  throw new Error('expected a RequestError, but the call returned');
}

export function linesOf(call: () => unknown): string[] {
  return requestErrorOf(call).message.split('\n');
}
