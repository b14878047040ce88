import { spawnSync } from 'node:child_process';
import { bashPath } from './bash-path.js';

let found: string[] | undefined;

// $BASH_VERSION and ${BASH_VERSINFO[@]} of the bash that `bash -o pipefail -c TEXT` would run, asked
// of it once, when a text first reads them (a fixed script; nothing of the text).
export function bashVersionInfo(): { version: string; versinfo: string[] } {
  if (found === undefined) {
    const result = spawnSync(
      bashPath(),
      ['--norc', '--noprofile', '-c', 'printf "%s\\n" "$BASH_VERSION" "${BASH_VERSINFO[@]}"'],
      {
        encoding: 'latin1',
        env: {},
        timeout: 10_000,
      },
    );
    found = result.status === 0 ? result.stdout.split('\n').slice(0, 7) : ['', '', '', '', '', '', ''];
  }
  return { version: found[0] ?? '', versinfo: found.slice(1) };
}
