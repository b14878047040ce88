import { spawnSync } from 'node:child_process';
import { bashPath } from './bash-path.js';

// Keyed by the bash asked: bashPath() follows PATH, which a long-running MCP server may see change.
const found = new Map<string, string[]>();

// $BASH_VERSION and ${BASH_VERSINFO[@]} of the bash that `bash -o pipefail -c TEXT` would run, asked
// of it once, when a text first reads them (a fixed script; nothing of the text).
export function bashVersionInfo(): { version: string; versinfo: string[] } {
  const bash = bashPath();
  let lines = found.get(bash);
  if (lines === undefined) {
    const result = spawnSync(
      bash,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash expands it, not JavaScript
      ['--norc', '--noprofile', '-c', 'printf "%s\\n" "$BASH_VERSION" "${BASH_VERSINFO[@]}"'],
      {
        encoding: 'latin1',
        env: {},
        timeout: 10_000,
      },
    );
    lines = result.status === 0 ? result.stdout.split('\n').slice(0, 7) : ['', '', '', '', '', '', ''];
    found.set(bash, lines);
  }
  return { version: lines[0] ?? '', versinfo: lines.slice(1) };
}
