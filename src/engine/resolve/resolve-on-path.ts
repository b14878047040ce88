import { linkTarget, modeOf, statOf } from './file-checks.js';
import { finishResolution } from './inspect-executable.js';
import { type Env, type Resolution, unresolved } from './outcome.js';
import { BASH_DEFAULT_PATH, searchPath } from './search-path.js';
import { shellWordKind } from './shell-builtins.js';
import { plural } from './words.js';

// A bare program name (`poetry`): looked up on the stage's PATH as bash would, with a warning when
// the file was found in a way other tools (env, execvp, Node) would not repeat.
export function resolveOnPath(program: string, env: Env, cwd: string): Resolution {
  const search = searchPath(program, env.PATH ?? BASH_DEFAULT_PATH, cwd, env.HOME, 'bash');
  if (search.kind === 'found') {
    const warnings: string[] = [];
    if (search.tilde) {
      warnings.push(
        `\`${program}\` was found through the PATH entry \`${search.entry}\`; only bash expands \`~\` in PATH (env, execvp and Node do not), so put the expanded directory on PATH`,
      );
    } else if (search.relative) {
      const entry = search.entry === '' ? 'an empty entry (the current directory)' : `\`${search.entry}\``;
      warnings.push(
        `\`${program}\` was found only through the relative PATH entry ${entry} as ${search.path}; this depends on the current directory, so put an absolute directory on PATH`,
      );
    }
    return finishResolution(program, search.path, 'path-lookup', warnings, env, cwd);
  }
  if (search.kind === 'denied') {
    const st = statOf(search.path);
    const mode = 'stats' in st ? ` (mode ${modeOf(st.stats)})` : '';
    const message = `\`${program}\`: found ${search.path} on PATH but it is not executable${mode}; make it executable (chmod +x ${search.path}) or fix PATH`;
    return unresolved(search.path, 'EACCES', 'not-executable', 126, message);
  }
  const kind = shellWordKind(program);
  if (kind !== null) {
    const message = `\`${program}\` is a shell ${kind}, not a program; run it through a shell: safe-run -- bash -c '...'`;
    return unresolved(null, 'ENOENT', 'builtin', 127, message);
  }
  const notes = [`searched ${plural(search.searched, 'directory', 'directories')}`];
  for (const link of search.brokenLinks) notes.push(`${link} is a broken symlink to ${linkTarget(link)}`);
  if (search.directory !== null) notes.push(`${search.directory} is a directory`);
  const next = search.brokenLinks.length > 0 ? 'reinstall it or fix PATH' : 'install it or fix PATH';
  return unresolved(
    null,
    'ENOENT',
    'not-on-path',
    127,
    `\`${program}\` was not found on PATH (${notes.join('; ')}); ${next}`,
  );
}
