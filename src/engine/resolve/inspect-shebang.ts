import { basename, resolve } from 'node:path';
import { isRunnableFile, statOf } from './file-checks.js';
import { inspectEnvForm } from './inspect-env-form.js';
import { FALLBACK_SHELL, type Inspection, MAX_DEPTH, RUNNABLE, type ShebangScript } from './inspection.js';
import { badInterpreter, chainFailure } from './outcome.js';
import { showControls } from './words.js';

// A script's #! interpreter must exist and be executable, or the kernel fails the script itself with
// ENOENT (127) or EACCES (126). The interpreter is inspected in turn (it may be a script too), and
// `#!/usr/bin/env NAME` goes on to look NAME up the way env will.
export function inspectShebang(script: ShebangScript): Inspection {
  const { program, file, shebang, env, cwd, depth, inspect } = script;
  const interpreter = shebang.interpreter;
  if (interpreter === '') {
    return badInterpreter(
      file,
      126,
      '',
      `${program}: its #! line names no interpreter; write the interpreter's path after #!`,
    );
  }
  const target = resolve(cwd, interpreter);
  const shown = `its interpreter ${showControls(interpreter)} (from the #! line)`;
  const st = statOf(target);
  if ('errno' in st) {
    const next = interpreter.endsWith('\r')
      ? `the line ends with a carriage return (Windows line endings): convert the file to LF (sed -i 's/\\r$//' ${program})`
      : 'install it or fix the #! line';
    return badInterpreter(file, 127, interpreter, `${program}: ${shown} does not exist; ${next}`);
  }
  if (!isRunnableFile(target, st.stats)) {
    const what = st.stats.isDirectory() ? 'is a directory' : 'is not executable';
    return badInterpreter(file, 126, interpreter, `${program}: ${shown} ${what}; fix the #! line`);
  }
  if (depth + 1 < MAX_DEPTH) {
    const inner = inspect(interpreter, target, env, cwd, depth + 1);
    if (!inner.ok) return chainFailure(program, file, inner);
    if (inner.interpreter !== null) {
      const warning = `${program}: its interpreter ${interpreter} has no #! line, so ${program} will be run with ${FALLBACK_SHELL}`;
      return { ok: true, interpreter: FALLBACK_SHELL, warnings: [warning], noShebang: true };
    }
  }
  if (basename(interpreter) === 'env' && shebang.arg !== null) return inspectEnvForm(script);
  return RUNNABLE;
}
