import type { RequestError } from '../errors.js';

// The `reason` and `next` of a refused request's JSON document: the same two fields a run's report
// leads with, so that a harness reading `reason` and `next` of every answer finds them here too. The
// message itself says what is wrong and, where there is one, the fix; `next` says what kind of fix
// and that nothing ran, so that trying something else is safe.
export function refusalSummary(error: RequestError, message: string): { reason: string; next: string } {
  const reason = `refused before anything ran: ${message.split('\n').join('; ')}`;
  return { reason, next: `nothing ran: ${fixOf(error)}, then run it again` };
}

function fixOf(error: RequestError): string {
  const family = error.code.split('.')[0];
  if (family === 'syntax') {
    const where = error.column === null ? '' : ` at column ${error.column}`;
    return `change the text${where}, or the flags, as the reason says`;
  }
  if (family === 'spec') return 'fix the spec file as the reason says';
  if (family === 'usage' || family === 'commander') {
    return 'fix the command line as the reason says (`safe-run --help` lists every flag)';
  }
  return 'fix what the reason names';
}
