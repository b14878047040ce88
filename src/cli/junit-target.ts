import fs from 'node:fs';
import { checkLogDir, checkWritableFile, statOrNone } from '../inputs/check-paths.js';
import type { Destination } from '../reporters/reporter.js';

// --junit FILE writes FILE; --junit DIR/ (a trailing slash, or a directory that exists) writes a
// new file in DIR for each run, so that a job whose every step shares the flag (SAFE_RUN_OPTIONS)
// keeps one file per step: safe-run-STEP.xml, then safe-run-STEP-2.xml... STEP is the GitHub step
// (GITHUB_ACTION) or the GitLab job (CI_JOB_NAME) when there is one.

function isDirectoryTarget(target: string): boolean {
  return target.endsWith('/') || statOrNone(target)?.isDirectory() === true;
}

// Checked before anything starts: a file in a writable directory, or a directory that can be made.
export function checkJunitTarget(target: string): void {
  if (isDirectoryTarget(target)) checkLogDir(target, '--junit');
  else checkWritableFile(target, '--junit');
}

function baseName(env: NodeJS.ProcessEnv): string {
  const step = env.GITHUB_ACTION || env.CI_JOB_NAME;
  return step ? `safe-run-${step.replace(/[^A-Za-z0-9._-]/g, '_')}` : 'safe-run';
}

export function junitDestination(target: string, env: NodeJS.ProcessEnv): Destination {
  if (!isDirectoryTarget(target)) return { kind: 'file', path: target, flag: '--junit' };
  return { kind: 'new-file', dir: target, base: baseName(env), ext: '.xml', flag: '--junit' };
}
