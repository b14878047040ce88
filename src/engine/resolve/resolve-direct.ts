import { isAbsolute, resolve } from 'node:path';
import { isExecutable, isSymlink, linkTarget, modeOf, statOf } from './file-checks.js';
import { finishResolution } from './inspect-executable.js';
import { type Env, type Resolution, type Unresolved, unresolved } from './outcome.js';

// A program named with a slash (`./build.sh`, `/usr/bin/env`): the file it names from `cwd`.
export function resolveDirect(program: string, env: Env, cwd: string): Resolution {
  // With a `..` in it, not normalised: the kernel takes `..` after a symbolic link in `cwd` to the
  // link target's parent, as bash's exec does (path.resolve would take the link's own parent).
  const dotdot = program.split('/').includes('..');
  const file =
    dotdot && !isAbsolute(program) ? `${cwd.replace(/\/$/, '')}/${program}` : resolve(cwd, program);
  // path.resolve drops a trailing slash, which makes the kernel insist on a directory.
  const st = statOf(program.endsWith('/') && !file.endsWith('/') ? `${file}/` : file);
  if ('errno' in st) return missingFile(program, file, st.errno);
  if (st.stats.isDirectory()) {
    return unresolved(
      file,
      'EISDIR',
      'is-directory',
      126,
      `${program}: is a directory, not a program; name the program inside it`,
    );
  }
  if (!isExecutable(file)) {
    const message = `${program}: is not executable (mode ${modeOf(st.stats)}); make it executable (chmod +x ${program}) or run it through its interpreter`;
    return unresolved(file, 'EACCES', 'not-executable', 126, message);
  }
  return finishResolution(program, file, 'direct', [], env, cwd);
}

function missingFile(program: string, file: string, errno: string): Unresolved {
  if (errno === 'ENOENT' && isSymlink(file)) {
    return unresolved(
      file,
      'ENOENT',
      'no-such-file',
      127,
      `${program}: is a broken symlink to ${linkTarget(file)}; reinstall it or fix the link`,
    );
  }
  if (errno === 'ENOENT') {
    return unresolved(
      file,
      'ENOENT',
      'no-such-file',
      127,
      `${program}: no such file (${file}); check the path and the working directory`,
    );
  }
  if (errno === 'EACCES') {
    const message = `${program}: permission denied on a directory on the way to ${file}; fix the directory permissions`;
    return unresolved(file, 'EACCES', 'not-executable', 126, message);
  }
  // bash says 126 for everything else (ENOTDIR, ELOOP, ENAMETOOLONG); the codes have no better slot.
  const why =
    errno === 'ENOTDIR'
      ? 'a part of the path is not a directory'
      : errno === 'ELOOP'
        ? 'too many levels of symbolic links'
        : errno;
  return unresolved(
    file,
    'ENOENT',
    'no-such-file',
    126,
    `${program}: cannot be reached (${why}); check the path`,
  );
}
