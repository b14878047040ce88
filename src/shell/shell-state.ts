import fs from 'node:fs';

// What a -c text's earlier steps leave to its later ones (and an MCP session to its next call): the
// logical working directory, the exported environment, the shell-only variables, and `$?`.
interface ShellState {
  // Bash's logical path ($PWD): symbolic links kept as written.
  cwd: string;
  env: Record<string, string>;
  vars: Record<string, string>;
  status: number;
  // Names `export NAME` marked while they had no value: bash exports them once they get one, so a
  // later NAME=value reaches the environment.
  exportedUnset?: string[];
}

// The state a fresh `bash -c` starts with in `dir`: $PWD is the inherited PWD when it names the same
// directory (bash keeps the logical path), else the directory itself.
export function initialState(dir: string, env: Record<string, string | undefined>): ShellState {
  const clean: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) clean[key] = value;
  let cwd = dir;
  const inherited = clean.PWD;
  if (inherited?.startsWith('/') && sameFile(inherited, dir)) cwd = inherited;
  return { cwd, env: clean, vars: {}, status: 0 };
}

function sameFile(a: string, b: string): boolean {
  try {
    const x = fs.statSync(a);
    const y = fs.statSync(b);
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}
