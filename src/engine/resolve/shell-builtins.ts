import { BUILTIN_NAMES } from '../../model/bash-builtins.js';
import { RESERVED_WORDS } from '../../model/bash-reserved-words.js';

// Names people write as a first word in a shell but that no file on PATH provides (`cd`, `source`,
// `if`): asked only after the PATH search found nothing, so a real `/usr/bin/cd` still wins.
export function shellWordKind(name: string): 'builtin' | 'keyword' | null {
  if (BUILTIN_NAMES.has(name)) return 'builtin';
  if (RESERVED_WORDS.has(name)) return 'keyword';
  return null;
}
