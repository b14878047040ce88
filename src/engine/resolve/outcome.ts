// What resolving a program ends in: the file to execute, or why it cannot be started, in words and
// with the exit code bash gives for it (126 found but cannot run, 127 not found).

type ResolveFailureCode = 'ENOENT' | 'EACCES' | 'EISDIR' | 'ENOEXEC' | 'EBADINTERP';

export interface Resolved {
  ok: true;
  // Absolute path of the file to execute.
  path: string;
  via: 'path-lookup' | 'direct';
  warnings: string[];
  // Set only when the caller must run the file through this program (`interpreter file args`):
  // an executable text file without a #! line, which the kernel refuses with ENOEXEC.
  interpreter: string | null;
  // The kernel refuses the file (ENOEXEC: no #! line, or a #! interpreter that has none), so the
  // interpreter is the shell a caller falls back to: /bin/sh for execvp, bash itself for bash.
  noShebang?: true;
}

export interface Unresolved {
  ok: false;
  // The file that would have been executed, when there was one.
  path: string | null;
  code: ResolveFailureCode;
  cause:
    | 'not-on-path'
    | 'no-such-file'
    | 'not-executable'
    | 'is-directory'
    | 'missing-interpreter'
    | 'bad-format'
    | 'builtin';
  message: string;
  exitCode: 126 | 127;
  // The interpreter that is missing or unusable (a path, or a name looked up by `env`).
  interpreter: string | null;
}

export type Resolution = Resolved | Unresolved;

export type Env = Record<string, string | undefined>;

export function unresolved(
  path: string | null,
  code: ResolveFailureCode,
  cause: Unresolved['cause'],
  exitCode: 126 | 127,
  message: string,
  interpreter: string | null = null,
): Unresolved {
  return { ok: false, path, code, cause, message, exitCode, interpreter };
}

export function badInterpreter(
  file: string,
  exitCode: 126 | 127,
  interpreter: string,
  message: string,
): Unresolved {
  return unresolved(file, 'EBADINTERP', 'missing-interpreter', exitCode, message, interpreter);
}

// A script whose interpreter (itself a script, or found by env) cannot start: the inner cause, told
// from the outer program's point of view.
export function chainFailure(program: string, file: string, inner: Unresolved): Unresolved {
  return { ...inner, path: file, message: `${program}: its interpreter cannot start: ${inner.message}` };
}
