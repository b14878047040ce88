import { spawnSync } from 'node:child_process';
import {
  accessSync,
  chmodSync,
  constants,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

export interface Scratch {
  readonly root: string;
  // A new empty directory below the root: what one test writes is all there is to look at.
  fresh(): string;
  // Writes root/name (creating the folders on the way) and returns its path.
  write(name: string, text: string): string;
  remove(): void;
}

// A temporary directory for one test file.
export function scratchDir(prefix: string): Scratch {
  const root = mkdtempSync(join(tmpdir(), prefix));
  return {
    root,
    fresh: () => mkdtempSync(join(root, 'case-')),
    write: (name, text) => putFile(root, name, text),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

// Writes dir/name (creating the folders on the way) with exactly `mode`, and returns its path.
export function putFile(dir: string, name: string, content: string | Buffer, mode = 0o644): string {
  const file = join(dir, name);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
  chmodSync(file, mode);
  return file;
}

// Where a shell would find `program` on this process's PATH, looked up independently of safe-run.
export function findOnPath(program: string): string | null {
  const candidates = program.includes('/')
    ? [program]
    : (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, program));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

// bash's own exit status when asked to run `program` with this environment and working directory.
export function bashStatus(
  program: string,
  env: Record<string, string | undefined>,
  cwd: string,
): number | null {
  const clean: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) clean[key] = value;
  return spawnSync('/bin/bash', ['-c', '"$0"', program], {
    env: clean,
    cwd,
    stdio: 'ignore',
    timeout: 30_000,
  }).status;
}
