import type { Env, Unresolved } from './outcome.js';
import type { Shebang } from './shebang.js';

// How a file that exists and may be executed would actually run, decided from its first bytes.

type Runnable = { ok: true; interpreter: string | null; warnings: string[]; noShebang?: true };
export type Inspection = Runnable | Unresolved;
export const RUNNABLE: Runnable = { ok: true, interpreter: null, warnings: [] };

// The shell a no-#! executable is run with by execvp, env and Node (bash itself uses bash).
export const FALLBACK_SHELL = '/bin/sh';
// Linux follows at most this many nested #! interpreters (BINPRM_MAX_RECURSION).
export const MAX_DEPTH = 4;

// inspectExecutable, handed to the #! checks so they can look into the interpreter they name
// without importing their caller.
type Inspect = (program: string, file: string, env: Env, cwd: string, depth: number) => Inspection;

// A script with a #! line, as the #! checks see it: the program as written and the file found, its
// #! line, the child's environment and directory, how many interpreters deep it is, and the inspector
// to look into the interpreter it names.
export interface ShebangScript {
  program: string;
  file: string;
  shebang: Shebang;
  env: Env;
  cwd: string;
  depth: number;
  inspect: Inspect;
}
