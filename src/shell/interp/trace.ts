import type { Bytes } from '../syntax/source.js';
import type { RunnerApi } from './api.js';
import { writeTo } from './output.js';

// set -x: the command about to run on stderr, after PS4 ("+ "), words quoted where bash quotes them.
export async function traceCommand(r: RunnerApi, assignments: number, args: readonly Bytes[]): Promise<void> {
  if (!r.sh.option('xtrace')) return;
  const ps4 = r.sh.vars.get('PS4');
  const prefix = ps4?.value?.kind === 'scalar' ? ps4.value.value : '+ ';
  const level = prefix.slice(0, 1).repeat(Math.max(r.sh.subshell, 0));
  void assignments;
  await writeTo(r.rt, r.sh.fds.get(2), `${level}${prefix}${args.map(traceQuote).join(' ')}\n`);
}

function traceQuote(word: Bytes): string {
  if (word === '') return "''";
  if (/^[A-Za-z0-9_./:=@%+,^-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
