import { readlinkSync } from 'node:fs';

// Node decodes the working directory as UTF-8, so in a directory whose name is not (`/tmp/d\xe9`)
// process.cwd() names a directory that does not exist, and every relative path checked from it fails.
// The kernel still knows the real one: /proc/self/cwd resolves to it in safe-run, and in a stage
// (which inherits the directory), so programs are found from there. Such a path is no name for a
// machine fact.
export const UNNAMED_CWD = '/proc/self/cwd';

export function workingDirectory(): string {
  const named = process.cwd();
  try {
    const real = readlinkSync('/proc/self/cwd', { encoding: 'buffer' });
    return real.equals(Buffer.from(named)) ? named : UNNAMED_CWD;
  } catch {
    return named;
  }
}
