import { lastIndex } from '../expand/variable.js';
import { VarError } from '../expand/vars.js';
import { parsePromptText } from '../syntax/parse.js';
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
    assignTarget(r, await expandedTarget(r, target), value);
    return 0;
  } catch (error) {
    if (!(error instanceof VarError)) throw error;
    await r.error(error.message);
    return 1;
  }
}

// NAME or NAME[subscript] (as read, printf -v and declare take it) gets `value`; a read-only variable
// or a subscript before an indexed array's first element is a VarError.
export function assignTarget(
  r: RunnerApi,
  target: Bytes,
  value: Bytes,
  options: { append?: boolean } = {},
): void {
  const open = target.indexOf('[');
  if (open < 0 || !target.endsWith(']')) {
    r.sh.vars.assign(target, value, options);
    return;
  }
  const name = target.slice(0, open);
  r.sh.vars.assign(name, value, { ...options, index: subscriptOf(r, name, target.slice(open + 1, -1)) });
}

// A key of an associative array as it is; an indexed array's subscript evaluated, a negative one
// counted back from the end (one before the first: bash's "bad array subscript").
export function subscriptOf(r: RunnerApi, name: string, text: Bytes): number | Bytes {
  const variable = r.sh.vars.get(name);
  if (variable?.value?.kind === 'assoc' || variable?.attrs.array === 'assoc') return text;
  const at = r.ex.subscript(text);
  if (at >= 0) return at;
  const resolved = lastIndex(variable) + 1 + at;
  if (resolved < 0) throw new VarError(`${name}[${text}]: bad array subscript`);
  return resolved;
}

// The element a nameref names (declare -n r='a[1]'), as subscriptOf gives it; a[@] and a[*] are no
// element to assign or unset.
export function referredSubscript(r: RunnerApi, name: string, text: Bytes): number | Bytes {
  if (text === '@' || text === '*') throw new VarError(`${name}[${text}]: bad array subscript`);
  return subscriptOf(r, name, text);
}

// NAME[SUB] given as text (printf -v, read): bash expands SUB's $ first, as in double quotes. (A
// command substitution there is left as written: safe-run checks only the text's own commands.)
export async function expandedTarget(r: RunnerApi, target: Bytes): Promise<Bytes> {
  const open = target.indexOf('[');
  if (open < 0 || !target.endsWith(']')) return target;
  const sub = target.slice(open + 1, -1);
  if (!/[$`]/.test(sub) || /`|\$\((?!\()|[<>]\(/.test(sub)) return target;
  const word = parsePromptText(sub);
  return word ? `${target.slice(0, open)}[${await r.ex.quotedText(word.parts, 'dq')}]` : target;
}
