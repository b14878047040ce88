import type { CommanderError } from 'commander';
import { RequestError } from '../errors.js';

// Commander's complaint (with its did-you-mean line) as one RequestError line, pointing at the help.
export function requestErrorFrom(
  error: CommanderError,
  printed: string,
  help: string,
  prefix = '',
): RequestError {
  const text = (printed || error.message)
    .replace(/^error: /, '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join(' ');
  return new RequestError(error.code, `${prefix}${text} (see ${help})`);
}
