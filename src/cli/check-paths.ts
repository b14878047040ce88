import fs from 'node:fs';
import { RequestError } from '../errors.js';
import { statOrNone } from '../inputs/check-paths.js';
import type { Plan } from '../types.js';

// The facts ledger is opened synchronously (read, then appended to): a FIFO there would block
// safe-run's only thread in open(2), deaf to every signal. Anything else that is not a file (a
// directory) fails at once and becomes a warning, as before.
export function refuseBlockingPaths(plan: Plan): void {
  const ledger = plan.settings.facts;
  if (ledger === null) return;
  const stat = statOrNone(ledger);
  if (stat?.isFIFO()) {
    throw new RequestError(
      'usage.facts',
      `facts ledger ${ledger}: a FIFO, not a file; name a file with --facts FILE, or use --no-facts`,
    );
  }
}
