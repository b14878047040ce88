import { spawnSync } from 'node:child_process';
import { bashPath } from './bash-path.js';

// Keyed by the bash asked: bashPath() follows PATH, which a long-running MCP server may see change.
const found = new Map<string, string[]>();

// The variables bash sets from how it was built, whose values safe-run asks of bash.
export const BUILT_IN_VARIABLES = ['MACHTYPE', 'HOSTTYPE', 'OSTYPE', 'BASH_LOADABLES_PATH'] as const;
type BuiltInVariable = (typeof BUILT_IN_VARIABLES)[number];

// Each printed as =VALUE, or as an empty line where bash leaves it unset (BASH_LOADABLES_PATH before 5.2).
const ASK = [
  '"$BASH_VERSION"',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: bash expands it, not JavaScript
  '"${BASH_VERSINFO[@]}"',
  ...BUILT_IN_VARIABLES.map((name) => `"\${${name}+=$${name}}"`),
].join(' ');

// $BASH_VERSION, ${BASH_VERSINFO[@]} and the variables above of the bash that `bash -o pipefail -c
// TEXT` would run, asked of it once, when a text first reads them (a fixed script; nothing of the text).
export function bashVersionInfo(): {
  version: string;
  versinfo: string[];
  builtIn: Record<BuiltInVariable, string | null>;
} {
  const bash = bashPath();
  let lines = found.get(bash);
  if (lines === undefined) {
    const result = spawnSync(bash, ['--norc', '--noprofile', '-c', `printf "%s\\n" ${ASK}`], {
      encoding: 'latin1',
      env: {},
      timeout: 10_000,
    });
    lines = result.status === 0 ? result.stdout.split('\n') : [];
    found.set(bash, lines);
  }
  const builtIn = Object.fromEntries(
    BUILT_IN_VARIABLES.map((name, i) => {
      const line = lines[7 + i] ?? '';
      return [name, line.startsWith('=') ? line.slice(1) : null];
    }),
  ) as Record<BuiltInVariable, string | null>;
  return {
    version: lines[0] ?? '',
    versinfo: Array.from({ length: 6 }, (_, i) => lines[1 + i] ?? ''),
    builtIn,
  };
}
