import { resolve } from 'node:path';
import { isRunnableFile, statOf } from './file-checks.js';
import { type Inspection, MAX_DEPTH, RUNNABLE, type ShebangScript } from './inspection.js';
import { badInterpreter, chainFailure, type Env } from './outcome.js';
import { EXECVP_DEFAULT_PATH, searchPath } from './search-path.js';
import { plural } from './words.js';

// `#!/usr/bin/env NAME` and `#!/usr/bin/env -S NAME ARGS`: env looks NAME up on the child's PATH.
// Without -S the kernel hands env the whole rest of the line as one name, spaces included. When NAME
// is missing, env starts and exits 127; preflight says so before anything starts.
export function inspectEnvForm(script: ShebangScript): Inspection {
  const { program, file, shebang, env, cwd, depth, inspect } = script;
  const arg = shebang.arg ?? '';
  const split = /^(?:-v*S|--split-string[= ]?)(.*)$/.exec(arg);
  if (split === null && arg.startsWith('-')) return RUNNABLE;
  const { name, pathValue } = envProgram(arg, split, env);
  if (name === null) return RUNNABLE;
  const shown = `its interpreter \`${name}\` (from #!${shebang.interpreter} ${arg})`;
  const next =
    split === null && /[ \t]/.test(name)
      ? `without -S, env looks for a program literally named "${name}": write #!${shebang.interpreter} -S ${name}`
      : 'install it or fix the #! line';
  let target: string;
  if (name.includes('/')) {
    target = resolve(cwd, name);
    const st = statOf(target);
    if ('errno' in st) return badInterpreter(file, 127, name, `${program}: ${shown} does not exist; ${next}`);
    if (!isRunnableFile(target, st.stats)) {
      return badInterpreter(file, 126, name, `${program}: ${shown} is not executable; fix the #! line`);
    }
  } else {
    const search = searchPath(name, pathValue, cwd, env.HOME, 'execvp');
    if (search.kind === 'denied') {
      return badInterpreter(
        file,
        126,
        name,
        `${program}: ${shown} was found at ${search.path} but is not executable; fix it or PATH`,
      );
    }
    if (search.kind === 'none') {
      const searched = plural(search.searched, 'directory', 'directories');
      return badInterpreter(
        file,
        127,
        name,
        `${program}: ${shown} is not on PATH (searched ${searched}); ${next}`,
      );
    }
    target = search.path;
  }
  if (depth + 1 >= MAX_DEPTH) return RUNNABLE;
  const inner = inspect(name, target, env, cwd, depth + 1);
  return inner.ok ? RUNNABLE : chainFailure(program, file, inner);
}

// The program env will run, and the PATH it will search: with -S, the first word that is not an
// option (or the argument of -u/-C/-P) or a variable assignment; `PATH=...` changes the search.
function envProgram(
  arg: string,
  split: RegExpExecArray | null,
  env: Env,
): { name: string | null; pathValue: string } {
  let pathValue = env.PATH ?? EXECVP_DEFAULT_PATH;
  if (split === null) return { name: arg, pathValue };
  const words = (split[1] ?? '').split(/[ \t]+/).filter((word) => word !== '');
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (/^-[uCP]$/.test(word)) i++;
    else if (word.startsWith('PATH=')) pathValue = word.slice(5);
    else if (!word.startsWith('-') && !/^[A-Za-z_]\w*=/.test(word)) return { name: word, pathValue };
  }
  return { name: null, pathValue };
}
