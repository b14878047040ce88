import type { ExpandEnv } from './env.js';
import { MANAGED_SHOPTS } from './oracle-script.js';
import { scalarOf } from './variable.js';

const LOCALE = ['LC_ALL', 'LC_CTYPE', 'LC_COLLATE', 'LANG'];

// The shell's state that decides how the oracle matches: the shopts that are on, then the locale
// variables ("=value", or "" when unset).
export function oracleState(env: ExpandEnv): string[] {
  return [MANAGED_SHOPTS.filter((name) => env.shopt(name)).join(' '), ...localeFields(env)];
}

export function localeFields(env: ExpandEnv): string[] {
  return LOCALE.map((name) => {
    const value = scalarOf(env.vars.get(name));
    return value === null ? '' : `=${value}`;
  });
}

// Whether characters are UTF-8 sequences here (else each byte is a character, as in the C locale).
export function isUtf8Locale(env: ExpandEnv): boolean {
  for (const name of ['LC_ALL', 'LC_CTYPE', 'LANG']) {
    const value = scalarOf(env.vars.get(name));
    if (value) return /utf-?8/i.test(value);
  }
  return false;
}
