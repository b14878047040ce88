import { readFileSync } from 'node:fs';
import { secretValuesFromEnv } from '../capture/mask.js';

// The secrets `safe-run inspect` masks: secret-looking values, and those of the --mask names, in
// its own environment and in the environment of every process it shows (readable for our own
// processes only; others are skipped). So a token on a command line is masked even when the shell
// running inspect never had it.
export function treeSecrets(
  pids: readonly number[],
  own: NodeJS.ProcessEnv,
  mask: readonly string[],
): string[] {
  const values = new Set(secretValuesFromEnv(own, mask));
  for (const pid of pids) {
    for (const value of secretValuesFromEnv(readEnviron(pid), mask)) values.add(value);
  }
  return [...values].sort((a, b) => b.length - a.length);
}

function readEnviron(pid: number): Record<string, string> {
  const env: Record<string, string> = {};
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/environ`, 'utf8');
  } catch {
    return env;
  }
  for (const entry of text.split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return env;
}
