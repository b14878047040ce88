import fs from 'node:fs';
import type { StageError, StageSpec } from '../types.js';
import { type Resolution, type Resolved, resolveProgram } from './resolve/resolve-program.js';

interface StagePreflight {
  // What resolving the program found; null when its working directory is missing.
  resolution: Resolution | null;
  error: StageError | null;
}

// Checks one stage before anything starts: its working directory, then its program. A stage without a
// directory of its own runs in safe-run's, checked as "." (its name may not survive as a string).
function preflightStage(spec: StageSpec, env: Record<string, string>, cwd: string): StagePreflight {
  if (!isDirectory(spec.cwd ?? '.')) {
    const error: StageError = {
      code: 'ENOENT',
      message: `working directory ${cwd} does not exist or is not a directory`,
      exitCode: 127,
      during: 'preflight',
    };
    return { resolution: null, error };
  }
  const resolution = resolveProgram((spec.launch ?? spec.argv)[0]!, env, cwd);
  if (resolution.ok) return { resolution: withShell(resolution, spec.noShebangShell), error: null };
  const { code, message, exitCode } = resolution;
  return { resolution, error: { code, message, exitCode, during: 'preflight' } };
}

// Stages that name the same program from the same directory with the same PATH and HOME (all that
// resolving reads besides the files) share one check: `cat | cat | ... | cat` reads each file once.
export function preflightMemo(): (
  spec: StageSpec,
  env: Record<string, string>,
  cwd: string,
) => StagePreflight {
  const seen = new Map<string, StagePreflight>();
  return (spec, env, cwd) => {
    const key = JSON.stringify([
      (spec.launch ?? spec.argv)[0],
      spec.cwd ?? null,
      cwd,
      env.PATH ?? null,
      env.HOME ?? null,
      spec.noShebangShell ?? null,
    ]);
    let found = seen.get(key);
    if (found === undefined) {
      found = preflightStage(spec, env, cwd);
      seen.set(key, found);
    }
    return found;
  };
}

// A file the kernel refuses for want of a #! line runs under the stage's own fallback shell when it
// has one; the warning about /bin/sh (the inspection's last) then no longer holds.
function withShell(resolution: Resolved, shell: string | undefined): Resolved {
  if (!resolution.noShebang || shell === undefined) return resolution;
  return { ...resolution, interpreter: shell, warnings: resolution.warnings.slice(0, -1) };
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
