import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { isRequestError } from '../errors.js';
import { MAX_TEXT_BYTES, specText, textTooLarge } from '../inputs/limits.js';
import type { RequestErrorCode } from '../types.js';
import { specError } from './format-problems.js';
import type { SpecFormat } from './parse-text.js';

// Where a spec's text came from: its label in messages, the directory its relative paths are
// relative to, and how to parse it.
interface SpecSource {
  text: string;
  label: string;
  baseDir: string;
  format: SpecFormat;
}

export const STDIN_LABEL = '<stdin>';

// `-` is stdin. A `.json` file is JSON; anything else (.yaml, .yml, stdin, /dev/fd/N from a shell's
// process substitution) is YAML, which also reads JSON. A spec that is not a regular file (stdin, a
// pipe) has no directory of its own: its relative paths are relative to the current directory.
export function readSpecSource(path: string, stdinText: () => string, preread?: string): SpecSource {
  if (path === '-') {
    return {
      text: readWith(stdinText, STDIN_LABEL),
      label: STDIN_LABEL,
      baseDir: process.cwd(),
      format: 'yaml',
    };
  }
  const format: SpecFormat = extname(path).toLowerCase() === '.json' ? 'json' : 'yaml';
  const text = readWith(() => preread ?? readFileBounded(path), path);
  return { text, label: path, baseDir: isRegularFile(path) ? dirname(resolve(path)) : process.cwd(), format };
}

const READ_ERRORS: Record<string, [code: RequestErrorCode, message: string]> = {
  ENOENT: ['spec.not-found', 'no such file'],
  ENOTDIR: ['spec.not-found', 'no such file (a parent is not a directory)'],
  EISDIR: ['spec.unreadable', 'is a directory, not a spec file'],
  EACCES: ['spec.unreadable', 'permission denied'],
  EPERM: ['spec.unreadable', 'permission denied'],
};

function readWith(read: () => string, label: string): string {
  if (label === '')
    throw specError('spec.not-found', '(no file)', [{ path: [], message: 'no spec file given' }]);
  try {
    return read();
  } catch (error) {
    if (isRequestError(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const [errorCode, message] = READ_ERRORS[code] ?? [
      'spec.unreadable',
      `cannot be read (${code || 'error'})`,
    ];
    throw specError(errorCode, label, [{ path: [], message }]);
  }
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function readFileBounded(path: string): string {
  const fd = openSync(path, 'r');
  try {
    return readBounded(fd, path);
  } finally {
    closeSync(fd);
  }
}

// Reads at most MAX_TEXT_BYTES (and one byte more, to know there was more): /dev/zero or a runaway
// pipe is refused instead of filling memory.
export function readBounded(fd: number, label: string): string {
  const buffer = Buffer.alloc(MAX_TEXT_BYTES + 1);
  let length = 0;
  for (;;) {
    const read = readSync(fd, buffer, length, buffer.length - length, null);
    if (read === 0) break;
    length += read;
    if (length > MAX_TEXT_BYTES) throw textTooLarge(label);
  }
  return specText(buffer.subarray(0, length), label);
}
