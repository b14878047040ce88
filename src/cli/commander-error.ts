import type { CommanderError } from 'commander';
import { RequestError } from '../errors.js';
import { REQUEST_ERROR_CODES } from '../model/request-error-codes.js';
import type { RequestErrorCode } from '../types.js';

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
  return new RequestError(commanderCode(error.code), `${prefix}${text} (see ${help})`);
}

// Commander's own code when the list has it; commander.error, its generic one, for any other.
function commanderCode(code: string): RequestErrorCode {
  const listed = REQUEST_ERROR_CODES.find((known) => known === code && known.startsWith('commander.'));
  return listed ?? 'commander.error';
}
