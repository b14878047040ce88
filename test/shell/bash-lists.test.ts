import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BUILTIN_NAMES } from '../../src/model/bash-builtins.js';
import { RESERVED_WORDS } from '../../src/model/bash-reserved-words.js';
import { READ_ONLY_VARIABLES } from '../../src/model/bash-variables.js';

// The one list each of bash's reserved words, read-only variables and builtins is bash 5.2's own,
// read from the bash on this machine when it is that version.
function bash(text: string): string {
  return execFileSync('bash', ['--norc', '--noprofile', '-c', text], { encoding: 'utf8', env: {} });
}

const lines = (text: string) => text.split('\n').filter(Boolean).sort();
// biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
const version = bash('echo "${BASH_VERSINFO[0]}.${BASH_VERSINFO[1]}"').trim();

describe.skipIf(version !== '5.2')("bash's names, as bash 5.2 lists them", () => {
  it('reserved words: compgen -k', () => {
    expect([...RESERVED_WORDS].sort()).toEqual(lines(bash('compgen -k')));
  });

  it('builtins: compgen -b', () => {
    expect([...BUILTIN_NAMES].sort()).toEqual(lines(bash('compgen -b')));
  });

  it('read-only variables: readonly -p of a fresh bash', () => {
    const names = lines(bash('readonly -p')).map((line) => /^declare -\w+ (\w+)/.exec(line)![1]);
    expect([...READ_ONLY_VARIABLES].sort()).toEqual(names.sort());
  });
});
