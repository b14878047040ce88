import fs from 'node:fs';
import path from 'node:path';

let found: string | null | undefined;

// The bash that `bash -o pipefail -c TEXT` would run: the first on safe-run's own PATH. Stages may
// change PATH; safe-run's helpers keep this one.
export function bashPath(): string {
  if (found === undefined) {
    found = null;
    for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(':')) {
      const file = path.join(dir || '.', 'bash');
      try {
        fs.accessSync(file, fs.constants.X_OK);
        if (fs.statSync(file).isFile()) {
          found = path.resolve(file);
          break;
        }
      } catch {
        // not here
      }
    }
  }
  return found ?? '/bin/bash';
}

// Puts any text inside single quotes for bash.
export function quoteForBash(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}
