import { VarError } from '../expand/vars.js';
import type { Redirect } from '../syntax/nodes.js';
import { toBytes } from '../syntax/source.js';
import type { RunnerApi } from './api.js';
import type { FdTable } from './fds.js';

// {NAME}>file, {NAME}<&0, {NAME}>&-: bash takes the lowest free descriptor from 10 on in the shell
// itself, puts its number in NAME, and keeps it open after the command (the shell's own from then on,
// inherited by its programs, until `exec {NAME}>&-` closes it).
// The descriptor a {NAME} redirection applies to: a new one (NAME set to it), or for {NAME}>&- the
// one NAME holds; 'skip' when NAME holds no number (bash closes nothing then); a failure in bash's
// words (said on stderr here) when NAME is unset for a close or cannot be assigned.
export async function varDescriptor(
  r: RunnerApi,
  redirect: Redirect,
  also: FdTable | null = null,
): Promise<number | 'skip' | { failed: string }> {
  const name = redirect.fdVar!;
  if ((redirect.op === '>&' || redirect.op === '<&') && redirect.target.raw === '-') {
    const value = r.sh.vars.get(name)?.value;
    if (value?.kind !== 'scalar') return failure(r, `${name}: ambiguous redirect`);
    return /^[0-9]+$/.test(value.value) ? Number(value.value) : 'skip';
  }
  let fd = 10;
  while (r.sh.fds.get(fd).kind !== 'closed' || (also && also.get(fd).kind !== 'closed')) fd++;
  try {
    r.sh.vars.assign(name, toBytes(String(fd)));
    return fd;
  } catch (error) {
    if (!(error instanceof VarError)) throw error;
    await r.error(error.message);
    return failure(r, `${name}: cannot assign fd to variable`);
  }
}

async function failure(r: RunnerApi, text: string): Promise<{ failed: string }> {
  await r.error(text);
  return { failed: `${r.sh.messageName()}: line ${r.sh.lineno}: ${text}` };
}
