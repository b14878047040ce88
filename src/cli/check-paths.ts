import fs from 'node:fs';
import { RequestError } from '../errors.js';
import type { Plan } from '../types.js';

// The facts ledger is opened synchronously (read, then appended to): a FIFO there would block
// safe-run's only thread in open(2), deaf to every signal. It must be a regular file, or not exist yet.
export function refuseBlockingPaths(plan: Plan): void {
  const ledger = plan.settings.facts;
  if (ledger === null) return;
  const stat = fs.statSync(ledger, { throwIfNoEntry: false });
  if (stat && !stat.isFile()) {
    throw new RequestError(
      'usage.facts',
      `facts ledger ${ledger}: not a regular file; name a file with --facts FILE, or use --no-facts`,
    );
  }
}
