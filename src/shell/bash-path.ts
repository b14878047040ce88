import fs from 'node:fs';
import path from 'node:path';

// The last PATH searched and the bash found on it. A process that serves many runs (the MCP server,
// a library caller) may change its PATH between them: the search is made again when PATH differs.
let last: { searched: string | undefined; found: string } | null = null;

// The bash that `bash -o pipefail -c TEXT` would run: the first on safe-run's own PATH. Stages may
// change PATH; safe-run's helpers keep this one.
export function bashPath(): string {
  const searched = process.env.PATH;
  if (last === null || last.searched !== searched) last = { searched, found: findBash(searched) };
  return last.found;
}

function findBash(searched = '/usr/bin:/bin'): string {
  for (const dir of searched.split(':')) {
    const file = path.join(dir || '.', 'bash');
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return path.resolve(file);
    } catch {
      // not here
    }
  }
  return '/bin/bash';
}

// Puts any text inside single quotes for bash.
export function quoteForBash(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}
