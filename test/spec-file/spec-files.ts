import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { RequestError } from '../../src/errors.js';

// A scratch directory of spec files for one test file; remove() in afterAll.
export function specDir() {
  const root = mkdtempSync(join(tmpdir(), 'safe-run-spec-'));
  return {
    root,
    write(name: string, text: string): string {
      const path = join(root, name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      return path;
    },
    remove(): void {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

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
