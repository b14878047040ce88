import { describeBinary, looksBinary } from './binary-file.js';
import { inspectElf, isElf } from './elf.js';
import { readAt } from './file-checks.js';
import { inspectShebang } from './inspect-shebang.js';
import { FALLBACK_SHELL, type Inspection, RUNNABLE } from './inspection.js';
import { type Env, type Resolution, type Resolved, unresolved } from './outcome.js';
import { parseShebang } from './shebang.js';

// Reads the start of an executable and decides, as the kernel and then bash would, how it runs.
function inspectExecutable(program: string, file: string, env: Env, cwd: string, depth: number): Inspection {
  const bytes = readAt(file, 0, 4096);
  if (bytes === null) return RUNNABLE;
  if (isElf(bytes)) return inspectElf(program, file, bytes);
  const shebang = parseShebang(bytes);
  if (shebang !== null) {
    return inspectShebang({ program, file, shebang, env, cwd, depth, inspect: inspectExecutable });
  }
  if (looksBinary(bytes.subarray(0, 128))) {
    const message = `${program}: is not a program this machine can run (${describeBinary(bytes)}); check that the file is the right download and not damaged`;
    return unresolved(file, 'ENOEXEC', 'bad-format', 126, message);
  }
  const warning = `${program} has no #! line; it will be run with ${FALLBACK_SHELL} (bash would run it with bash); add a #! line to choose its interpreter`;
  return { ok: true, interpreter: FALLBACK_SHELL, warnings: [warning], noShebang: true };
}

// The last step for a file that was found and may be executed: look inside it.
export function finishResolution(
  program: string,
  file: string,
  via: Resolved['via'],
  warnings: string[],
  env: Env,
  cwd: string,
): Resolution {
  const inspection = inspectExecutable(program, file, env, cwd, 0);
  if (!inspection.ok) return inspection;
  return {
    ok: true,
    path: file,
    via,
    warnings: [...warnings, ...inspection.warnings],
    interpreter: inspection.interpreter,
    ...(inspection.noShebang ? { noShebang: true as const } : {}),
  };
}
