import { type Env, type Resolution, unresolved } from './outcome.js';
import { resolveDirect } from './resolve-direct.js';
import { resolveOnPath } from './resolve-on-path.js';

// Preflight: find the file each stage would execute, the way bash would, and say in words why a
// program cannot be started before anything starts. Exit codes are the ones bash uses (126/127);
// docs/environment-facts.md has the table and the bash experiments behind it. The steps live in
// resolve/: the PATH search, the #! line (and `#!/usr/bin/env NAME`), ELF programs and their
// dynamic loader, bash's rule for binary files, and the shell words that are not programs.

export type { Resolution, Resolved } from './outcome.js';

export function resolveProgram(program: string, env: Env, cwd: string): Resolution {
  if (program === '' || program.includes('\0')) {
    const what = program === '' ? 'the program name is empty' : 'the program name contains a NUL byte';
    return unresolved(
      null,
      'ENOENT',
      'not-on-path',
      127,
      `${what}; give the program to run as the first word`,
    );
  }
  return program.includes('/') ? resolveDirect(program, env, cwd) : resolveOnPath(program, env, cwd);
}
