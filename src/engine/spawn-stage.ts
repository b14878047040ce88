import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import type { StageSpec } from '../types.js';
import { trampolineFor, undecodableEnvironment } from './raw-environment.js';
import type { Resolved } from './resolve/resolve-program.js';
import type { StdioSlot } from './stdio-slot.js';

export interface StageFds {
  stdin: StdioSlot;
  stdout: StdioSlot;
  stderr: StdioSlot;
  // Descriptors 3 and above a -c text gives the program ('ignore': not open).
  further: StdioSlot[];
}

interface SpawnedStage {
  child: ChildProcess;
  // Null when the process could not be created (the error arrives through onSpawnError).
  pid: number | null;
}

// Starts one stage as argv, without a shell, as the leader of its own process group (detached), with
// argv[0] exactly as the user wrote it. A script with no #! line runs under /bin/sh, as bash does.
// A stage without a directory of its own inherits safe-run's as it is (no cwd option): its name as a
// string may not be the directory's bytes.
export function spawnStage(
  spec: StageSpec,
  resolved: Resolved,
  fds: StageFds,
  env: Record<string, string>,
): SpawnedStage {
  // A builtin run by bash shows its words as argv but launches bash (`launch`).
  const [program, ...args] = (spec.launch ?? spec.argv) as [string, ...string[]];
  const interpreter = resolved.interpreter;
  // A program named by a path is executed by that path, as bash does: a script's interpreter gets it as
  // written (its $0, `usage: ./run.sh`), not the absolute path it was found at.
  const file = interpreter ?? (program.includes('/') && !spec.execFound ? program : resolved.path);
  // The script as the user named it when that was a path (bash's $0), else the file found on PATH.
  const fileArgs = interpreter ? [program.includes('/') ? program : resolved.path, ...args] : args;
  const argv0 = interpreter ? path.basename(interpreter) : program;
  // As a shell does: `_` names the program being run, not whatever started safe-run.
  const stageEnv = { ...env, _: file };
  const via = trampolineFor(file, [argv0, ...fileArgs], stageEnv, undecodableEnvironment());
  const child = spawn(via?.file ?? file, via?.args ?? fileArgs, {
    argv0: via ? 'perl' : argv0,
    ...(spec.cwd === null ? {} : { cwd: spec.cwd }),
    env: via ? {} : stageEnv,
    stdio: [fds.stdin, fds.stdout, fds.stderr, ...withoutTrailingGaps(fds.further)],
    detached: true,
    windowsHide: true,
  });
  return { child, pid: child.pid ?? null };
}

function withoutTrailingGaps(slots: StdioSlot[]): StdioSlot[] {
  let end = slots.length;
  while (end > 0 && slots[end - 1] === 'ignore') end--;
  return slots.slice(0, end);
}
