import { VarError } from '../expand/vars.js';
import type { Bytes } from '../syntax/source.js';
import type { RunnerApi } from './api.js';

// Assigns `value` to NAME or NAME[index] written as text, as bash's builtins that take a variable
// name do: an invalid name or a read-only variable is said, and the status is 1.
export async function assignNamed(r: RunnerApi, target: Bytes, value: Bytes): Promise<number> {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[(.*)\])?$/s.exec(target);
  if (!match) {
    await r.error(`\`${target}': not a valid identifier`);
    return 1;
  }
  try {
    if (match[2] === undefined) r.sh.vars.assign(match[1]!, value);
    else r.sh.vars.assign(match[1]!, value, { index: await subscriptOf(r, match[1]!, match[2]) });
    return 0;
  } catch (error) {
    if (!(error instanceof VarError)) throw error;
    await r.error(error.message);
    return 1;
  }
}

async function subscriptOf(r: RunnerApi, name: string, index: Bytes): Promise<number | Bytes> {
  const variable = r.sh.vars.get(name);
  if (variable?.value?.kind === 'assoc' || variable?.attrs.array === 'assoc') return index;
  return r.ex.subscript(index);
}
