import fs from 'node:fs';
import { resolveProgram } from './resolve-program.js';
import type { StageRun } from './stage-run.js';

// Resolves every stage's program before any starts. Returns true when one cannot be started: then
// nothing starts at all, so a broken machine never leaves half a pipeline's side effects behind.
export function preflight(runs: StageRun[]): boolean {
  let failed = false;
  for (const run of runs) {
    if (!isDirectory(run.cwd)) {
      failed = true;
      run.preflightError = {
        code: 'ENOENT',
        message: `working directory ${run.cwd} does not exist or is not a directory`,
        exitCode: 127,
        during: 'preflight',
      };
      continue;
    }
    const resolution = resolveProgram((run.spec.launch ?? run.spec.argv)[0]!, run.env, run.cwd);
    run.resolution = resolution;
    run.resolvedPath = resolution.path;
    if (resolution.ok) {
      for (const warning of resolution.warnings) run.warnings.push(`stage "${run.spec.name}": ${warning}`);
    } else {
      failed = true;
      run.preflightError = {
        code: resolution.code,
        message: resolution.message,
        exitCode: resolution.exitCode,
        during: 'preflight',
      };
    }
  }
  return failed;
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
