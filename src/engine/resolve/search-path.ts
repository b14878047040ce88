import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { isExecutable, isSymlink, statOf } from './file-checks.js';

// What bash 5.2 on Debian puts in PATH when the environment has none (measured; note the `.`).
export const BASH_DEFAULT_PATH = '/usr/local/bin:/usr/local/sbin:/usr/bin:/usr/sbin:/bin:/sbin:.';
// What glibc's execvp (and so `/usr/bin/env`) searches when PATH is unset.
export const EXECVP_DEFAULT_PATH = '/bin:/usr/bin';

type Search =
  // `relative`: found through a PATH entry that depends on the current directory (`bin`, `.`, empty).
  | { kind: 'found'; path: string; entry: string; relative: boolean; tilde: boolean }
  // A match exists but cannot run: the one bash (or execvp) would try, and fail on with 126.
  | { kind: 'denied'; path: string }
  | { kind: 'none'; searched: number; brokenLinks: string[]; directory: string | null };

// `bash` mode follows bash's findcmd.c: `~` is expanded, and the first existing match that cannot
// run is what bash runs (and fails with 126), unless that first match is a directory, which makes
// the whole search "not found" (127). `execvp` mode is glibc's execvp, used by `/usr/bin/env`: no
// `~`, and any match that cannot run (directories included) means 126.
export function searchPath(
  name: string,
  pathValue: string,
  cwd: string,
  home: string | undefined,
  mode: 'bash' | 'execvp',
): Search {
  const entries = pathValue.split(':');
  const brokenLinks: string[] = [];
  let loseOn: { path: string; directory: boolean } | null = null;
  for (const entry of entries) {
    let dir = entry === '' ? '.' : entry;
    const tilde = mode === 'bash' && (dir === '~' || dir.startsWith('~/'));
    if (tilde) dir = (home || homedir()) + dir.slice(1);
    const full = resolve(cwd, dir, name);
    const st = statOf(full);
    if ('errno' in st) {
      // A PATH listing one directory twice still has one broken link in it.
      if (st.errno === 'ENOENT' && !brokenLinks.includes(full) && isSymlink(full)) brokenLinks.push(full);
      continue;
    }
    const directory = st.stats.isDirectory();
    if (!directory && isExecutable(full))
      return { kind: 'found', path: full, entry, relative: !isAbsolute(dir), tilde };
    loseOn ??= { path: full, directory };
  }
  if (loseOn !== null && (mode === 'execvp' || !loseOn.directory))
    return { kind: 'denied', path: loseOn.path };
  const directory = loseOn?.directory ? loseOn.path : null;
  return { kind: 'none', searched: new Set(entries).size, brokenLinks, directory };
}
