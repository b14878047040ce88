import {
  accessSync,
  closeSync,
  constants,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  type Stats,
  statSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { basename, isAbsolute, resolve } from 'node:path';

// Preflight: find the file each stage would execute, the way bash would, and say in words why a
// program cannot be started before anything starts. Exit codes are the ones bash uses (126/127);
// docs/environment-facts.md has the table and the bash experiments behind it.

export type ResolveFailureCode = 'ENOENT' | 'EACCES' | 'EISDIR' | 'ENOEXEC' | 'EBADINTERP';

export interface Resolved {
  ok: true;
  // Absolute path of the file to execute.
  path: string;
  via: 'path-lookup' | 'direct';
  warnings: string[];
  // Set only when the caller must run the file through this program (`interpreter file args`):
  // an executable text file without a #! line, which the kernel refuses with ENOEXEC.
  interpreter: string | null;
}

export interface Unresolved {
  ok: false;
  // The file that would have been executed, when there was one.
  path: string | null;
  code: ResolveFailureCode;
  cause:
    | 'not-on-path'
    | 'no-such-file'
    | 'not-executable'
    | 'is-directory'
    | 'missing-interpreter'
    | 'bad-format'
    | 'builtin';
  message: string;
  exitCode: 126 | 127;
  // The interpreter that is missing or unusable (a path, or a name looked up by `env`).
  interpreter: string | null;
}

export type Resolution = Resolved | Unresolved;

// What bash 5.2 on Debian puts in PATH when the environment has none (measured; note the `.`).
export const BASH_DEFAULT_PATH = '/usr/local/bin:/usr/local/sbin:/usr/bin:/usr/sbin:/bin:/sbin:.';
// What glibc's execvp (and so `/usr/bin/env`) searches when PATH is unset.
const EXECVP_DEFAULT_PATH = '/bin:/usr/bin';
// The shell a no-#! executable is run with by execvp, env and Node (bash itself uses bash).
const FALLBACK_SHELL = '/bin/sh';
// Linux follows at most this many nested #! interpreters (BINPRM_MAX_RECURSION).
const MAX_DEPTH = 4;

// `compgen -b` and `compgen -k` of bash 5.2.
const BUILTINS = new Set(
  (
    '. : [ alias bg bind break builtin caller cd command compgen complete compopt continue declare dirs disown ' +
    'echo enable eval exec exit export false fc fg getopts hash help history jobs kill let local logout mapfile ' +
    'popd printf pushd pwd read readarray readonly return set shift shopt source suspend test times trap true ' +
    'type typeset ulimit umask unalias unset wait'
  ).split(' '),
);
const KEYWORDS = new Set(
  'if then else elif fi case esac for select while until do done in function time { } ! [[ ]] coproc'.split(
    ' ',
  ),
);

type Env = Record<string, string | undefined>;
type Runnable = { ok: true; interpreter: string | null; warnings: string[] };
type Inspection = Runnable | Unresolved;
const RUNNABLE: Runnable = { ok: true, interpreter: null, warnings: [] };

export function resolveProgram(program: string, env: Env, cwd: string): Resolution {
  if (program === '' || program.includes('\0')) {
    const what = program === '' ? 'the program name is empty' : 'the program name contains a NUL byte';
    return no(null, 'ENOENT', 'not-on-path', 127, `${what}; give the program to run as the first word`);
  }
  return program.includes('/') ? resolveDirect(program, env, cwd) : resolveOnPath(program, env, cwd);
}

function resolveDirect(program: string, env: Env, cwd: string): Resolution {
  const file = resolve(cwd, program);
  // path.resolve drops a trailing slash, which makes the kernel insist on a directory.
  const st = statOf(program.endsWith('/') ? `${file}/` : file);
  if ('errno' in st) return missingFile(program, file, st.errno);
  if (st.stats.isDirectory()) {
    return no(
      file,
      'EISDIR',
      'is-directory',
      126,
      `${program}: is a directory, not a program; name the program inside it`,
    );
  }
  if (!isExecutable(file)) {
    const message = `${program}: is not executable (mode ${modeOf(st.stats)}); make it executable (chmod +x ${program}) or run it through its interpreter`;
    return no(file, 'EACCES', 'not-executable', 126, message);
  }
  return finish(program, file, 'direct', [], env, cwd);
}

function resolveOnPath(program: string, env: Env, cwd: string): Resolution {
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
    return finish(program, search.path, 'path-lookup', warnings, env, cwd);
  }
  if (search.kind === 'denied') {
    const st = statOf(search.path);
    const mode = 'stats' in st ? ` (mode ${modeOf(st.stats)})` : '';
    const message = `\`${program}\`: found ${search.path} on PATH but it is not executable${mode}; make it executable (chmod +x ${search.path}) or fix PATH`;
    return no(search.path, 'EACCES', 'not-executable', 126, message);
  }
  const kind = BUILTINS.has(program) ? 'builtin' : KEYWORDS.has(program) ? 'keyword' : null;
  if (kind !== null) {
    const message = `\`${program}\` is a shell ${kind}, not a program; run it through a shell: safe-run -- bash -c '...'`;
    return no(null, 'ENOENT', 'builtin', 127, message);
  }
  const notes = [`searched ${plural(search.searched, 'directory', 'directories')}`];
  for (const link of search.brokenLinks) notes.push(`${link} is a broken symlink to ${linkTarget(link)}`);
  if (search.directory !== null) notes.push(`${search.directory} is a directory`);
  const next = search.brokenLinks.length > 0 ? 'reinstall it or fix PATH' : 'install it or fix PATH';
  return no(
    null,
    'ENOENT',
    'not-on-path',
    127,
    `\`${program}\` was not found on PATH (${notes.join('; ')}); ${next}`,
  );
}

function finish(
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
  };
}

type Search =
  | { kind: 'found'; path: string; entry: string; relative: boolean; tilde: boolean }
  | { kind: 'denied'; path: string }
  | { kind: 'none'; searched: number; brokenLinks: string[]; directory: string | null };

// `bash` mode follows bash's findcmd.c: `~` is expanded, and the first existing match that cannot
// run is what bash runs (and fails with 126), unless that first match is a directory, which makes
// the whole search "not found" (127). `execvp` mode is glibc's execvp, used by `/usr/bin/env`: no
// `~`, and any match that cannot run (directories included) means 126.
function searchPath(
  name: string,
  pathValue: string,
  cwd: string,
  home: string | undefined,
  mode: 'bash' | 'execvp',
): Search {
  const entries = pathValue.split(':');
  const brokenLinks: string[] = [];
  let loseOn: { path: string; directory: boolean } | null = null;
  for (const entry of entries) {
    let dir = entry === '' ? '.' : entry;
    const tilde = mode === 'bash' && (dir === '~' || dir.startsWith('~/'));
    if (tilde) dir = (home || homedir()) + dir.slice(1);
    const full = resolve(cwd, dir, name);
    const st = statOf(full);
    if ('errno' in st) {
      if (st.errno === 'ENOENT' && isSymlink(full)) brokenLinks.push(full);
      continue;
    }
    const directory = st.stats.isDirectory();
    if (!directory && isExecutable(full))
      return { kind: 'found', path: full, entry, relative: !isAbsolute(dir), tilde };
    loseOn ??= { path: full, directory };
  }
  if (loseOn !== null && (mode === 'execvp' || !loseOn.directory))
    return { kind: 'denied', path: loseOn.path };
  const directory = loseOn?.directory ? loseOn.path : null;
  return { kind: 'none', searched: new Set(entries).size, brokenLinks, directory };
}

// Reads the start of an executable and decides, as the kernel and then bash would, how it runs.
function inspectExecutable(program: string, file: string, env: Env, cwd: string, depth: number): Inspection {
  const bytes = readAt(file, 0, 4096);
  if (bytes === null) return RUNNABLE;
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x7f454c46) return inspectElf(program, file, bytes);
  const shebang = parseShebang(bytes);
  if (shebang !== null) return inspectShebang(program, file, shebang, env, cwd, depth);
  if (looksBinary(bytes.subarray(0, 128))) {
    const message = `${program}: is not a program this machine can run (${describeBinary(bytes)}); check that the file is the right download and not damaged`;
    return no(file, 'ENOEXEC', 'bad-format', 126, message);
  }
  const warning = `${program} has no #! line; it will be run with ${FALLBACK_SHELL} (bash would run it with bash); add a #! line to choose its interpreter`;
  return { ok: true, interpreter: FALLBACK_SHELL, warnings: [warning] };
}

interface Shebang {
  interpreter: string;
  arg: string | null;
}

// Linux's fs/binfmt_script.c on the first 256 bytes: the interpreter ends at space, tab or NUL, and
// the rest of the line (trimmed) is one argument. Returns null where the kernel answers ENOEXEC
// (no interpreter, or one cut off by the 256 bytes); bash then runs the file as a script.
function parseShebang(bytes: Buffer): Shebang | null {
  const buf = Buffer.alloc(256);
  bytes.copy(buf, 0, 0, 256);
  if (buf[0] !== 0x23 || buf[1] !== 0x21) return null;
  const spacetab = (i: number) => buf[i] === 0x20 || buf[i] === 0x09;
  const find = (from: number, to: number, test: (i: number) => boolean) => {
    for (let i = from; i < to; i++) if (test(i)) return i;
    return -1;
  };
  const nonSpacetab = (i: number) => !spacetab(i);
  const terminator = (i: number) => spacetab(i) || buf[i] === 0;
  const nul = buf.indexOf(0);
  let end = buf.subarray(0, nul === -1 ? 256 : nul).indexOf(0x0a);
  if (end === -1) {
    const start = find(2, 255, nonSpacetab);
    if (start === -1 || find(start, 255, terminator) === -1) return null;
    end = 255;
  }
  while (end > 2 && spacetab(end - 1)) end--;
  const name = find(2, end, nonSpacetab);
  if (name === -1) return null;
  const sep = find(name, end, terminator);
  const argStart = sep !== -1 && buf[sep] !== 0 ? find(sep, end, nonSpacetab) : -1;
  const text = (from: number, to: number) => {
    const stop = buf.indexOf(0, from);
    return buf.toString('utf8', from, stop !== -1 && stop < to ? stop : to);
  };
  return {
    interpreter: text(name, sep === -1 ? end : sep),
    arg: argStart === -1 ? null : text(argStart, end),
  };
}

function inspectShebang(
  program: string,
  file: string,
  shebang: Shebang,
  env: Env,
  cwd: string,
  depth: number,
): Inspection {
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
  const shown = `its interpreter ${show(interpreter)} (from the #! line)`;
  const st = statOf(target);
  if ('errno' in st) {
    const next = interpreter.endsWith('\r')
      ? `the line ends with a carriage return (Windows line endings): convert the file to LF (sed -i 's/\\r$//' ${program})`
      : 'install it or fix the #! line';
    return badInterpreter(file, 127, interpreter, `${program}: ${shown} does not exist; ${next}`);
  }
  if (st.stats.isDirectory() || !isExecutable(target)) {
    const what = st.stats.isDirectory() ? 'is a directory' : 'is not executable';
    return badInterpreter(file, 126, interpreter, `${program}: ${shown} ${what}; fix the #! line`);
  }
  if (depth + 1 < MAX_DEPTH) {
    const inner = inspectExecutable(interpreter, target, env, cwd, depth + 1);
    if (!inner.ok) return chained(program, file, inner);
    if (inner.interpreter !== null) {
      const warning = `${program}: its interpreter ${interpreter} has no #! line, so ${program} will be run with ${FALLBACK_SHELL}`;
      return { ok: true, interpreter: FALLBACK_SHELL, warnings: [warning] };
    }
  }
  if (basename(interpreter) === 'env' && shebang.arg !== null)
    return inspectEnvForm(program, file, shebang, env, cwd, depth);
  return RUNNABLE;
}

// `#!/usr/bin/env NAME` and `#!/usr/bin/env -S NAME ARGS`: env looks NAME up on the child's PATH.
// Without -S the kernel hands env the whole rest of the line as one name, spaces included.
function inspectEnvForm(
  program: string,
  file: string,
  shebang: Shebang,
  env: Env,
  cwd: string,
  depth: number,
): Inspection {
  const arg = shebang.arg ?? '';
  const split = /^(?:-v*S|--split-string[= ]?)(.*)$/.exec(arg);
  if (split === null && arg.startsWith('-')) return RUNNABLE;
  let pathValue = env.PATH ?? EXECVP_DEFAULT_PATH;
  let name: string | null = split === null ? arg : null;
  const words = (split?.[1] ?? '').split(/[ \t]+/).filter((word) => word !== '');
  for (let i = 0; name === null && i < words.length; i++) {
    const word = words[i]!;
    if (/^-[uCP]$/.test(word)) i++;
    else if (word.startsWith('PATH=')) pathValue = word.slice(5);
    else if (!word.startsWith('-') && !/^[A-Za-z_]\w*=/.test(word)) name = word;
  }
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
    if (st.stats.isDirectory() || !isExecutable(target)) {
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
  const inner = inspectExecutable(name, target, env, cwd, depth + 1);
  return inner.ok ? RUNNABLE : chained(program, file, inner);
}

// e_machine values each Node architecture runs natively, and names for the common ones.
const NATIVE: Record<string, { name: string; machines: number[] }> = {
  x64: { name: 'x86_64', machines: [62, 3] },
  ia32: { name: 'i386', machines: [3] },
  arm64: { name: 'aarch64', machines: [183, 40] },
  arm: { name: 'arm', machines: [40] },
  riscv64: { name: 'riscv64', machines: [243] },
  ppc64: { name: 'ppc64', machines: [21] },
  s390x: { name: 's390x', machines: [22] },
  loong64: { name: 'loongarch64', machines: [258] },
};
const MACHINES: Record<number, string> = {
  3: 'i386',
  8: 'mips',
  20: 'ppc',
  21: 'ppc64',
  22: 's390x',
  40: 'arm',
  62: 'x86_64',
  183: 'aarch64',
  243: 'riscv',
  258: 'loongarch',
};

// The checks after which the kernel would answer ENOEXEC, then the dynamic loader (PT_INTERP): a
// missing loader makes the kernel report ENOENT for the program itself, like a missing #! interpreter.
function inspectElf(program: string, file: string, b: Buffer): Inspection {
  const is64 = b[4] === 2;
  const le = b[5] === 1;
  if ((b[4] !== 1 && b[4] !== 2) || (b[5] !== 1 && b[5] !== 2) || b.length < (is64 ? 64 : 52)) {
    return no(
      file,
      'ENOEXEC',
      'bad-format',
      126,
      `${program}: is a damaged or truncated ELF file; reinstall it`,
    );
  }
  const u16 = (buf: Buffer, at: number) => (le ? buf.readUInt16LE(at) : buf.readUInt16BE(at));
  const u32 = (buf: Buffer, at: number) => (le ? buf.readUInt32LE(at) : buf.readUInt32BE(at));
  const word = (buf: Buffer, at: number) =>
    is64 ? Number(le ? buf.readBigUInt64LE(at) : buf.readBigUInt64BE(at)) : u32(buf, at);
  const type = u16(b, 16);
  if (type !== 2 && type !== 3) {
    const what = type === 1 ? 'an object file' : type === 4 ? 'a core dump' : 'not an executable';
    return no(
      file,
      'ENOEXEC',
      'bad-format',
      126,
      `${program}: is an ELF file but ${what}, not a program; check the build output`,
    );
  }
  const machine = u16(b, 18);
  const native = NATIVE[process.arch];
  if (native !== undefined && !native.machines.includes(machine) && !hasForeignHandlers()) {
    const theirs = MACHINES[machine] ?? `machine type ${machine}`;
    const message = `${program}: is a program for ${theirs}, but this machine is ${native.name}; install the ${native.name} build`;
    return no(file, 'ENOEXEC', 'bad-format', 126, message);
  }
  const phentsize = u16(b, is64 ? 54 : 42);
  const phnum = u16(b, is64 ? 56 : 44);
  if (phentsize < (is64 ? 56 : 32) || phnum > 4096) return RUNNABLE;
  const table = readAt(file, word(b, is64 ? 32 : 28), phentsize * phnum) ?? Buffer.alloc(0);
  for (let i = 0; i + phentsize <= table.length; i += phentsize) {
    if (u32(table, i) !== 3) continue;
    const text = readAt(
      file,
      word(table, i + (is64 ? 8 : 4)),
      Math.min(word(table, i + (is64 ? 32 : 16)), 4096),
    );
    const loader = text?.toString('utf8').replace(/\0.*$/s, '') ?? '';
    const st = statOf(loader);
    if (!('errno' in st) && !st.stats.isDirectory() && isExecutable(loader)) return RUNNABLE;
    const state = 'errno' in st ? 'does not exist' : 'is not usable';
    const message = `${program}: its ELF interpreter (dynamic loader) ${loader} ${state}; the program was built for another system (for example musl or another distribution), so install a build for this one`;
    return badInterpreter(file, 'errno' in st ? 127 : 126, loader, message);
  }
  return RUNNABLE;
}

// binfmt_misc handlers (qemu-user, wine...) may run foreign binaries; then the kernel decides, not us.
function hasForeignHandlers(): boolean {
  try {
    return readdirSync('/proc/sys/fs/binfmt_misc').some((name) => name !== 'register' && name !== 'status');
  } catch {
    return false;
  }
}

// bash's check_binary_file(): a NUL byte in the first line (first two lines after #!) of 128 bytes.
function looksBinary(sample: Buffer): boolean {
  let lines = sample[0] === 0x23 && sample[1] === 0x21 ? 2 : 1;
  for (const byte of sample) {
    if (byte === 0x0a && --lines === 0) return false;
    if (byte === 0) return true;
  }
  return false;
}

function describeBinary(bytes: Buffer): string {
  if (bytes[0] === 0x4d && bytes[1] === 0x5a) return 'a Windows executable';
  const magic = bytes.length >= 4 ? bytes.readUInt32BE(0) : 0;
  if ([0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe].includes(magic)) return 'a macOS (Mach-O) executable';
  if (magic === 0xcafebabe) return 'a macOS universal binary or Java class file';
  return 'binary data that is neither ELF nor a #! script';
}

function missingFile(program: string, file: string, errno: string): Unresolved {
  if (errno === 'ENOENT' && isSymlink(file)) {
    return no(
      file,
      'ENOENT',
      'no-such-file',
      127,
      `${program}: is a broken symlink to ${linkTarget(file)}; reinstall it or fix the link`,
    );
  }
  if (errno === 'ENOENT') {
    return no(
      file,
      'ENOENT',
      'no-such-file',
      127,
      `${program}: no such file (${file}); check the path and the working directory`,
    );
  }
  if (errno === 'EACCES') {
    const message = `${program}: permission denied on a directory on the way to ${file}; fix the directory permissions`;
    return no(file, 'EACCES', 'not-executable', 126, message);
  }
  // bash says 126 for everything else (ENOTDIR, ELOOP, ENAMETOOLONG); the codes have no better slot.
  const why =
    errno === 'ENOTDIR'
      ? 'a part of the path is not a directory'
      : errno === 'ELOOP'
        ? 'too many levels of symbolic links'
        : errno;
  return no(file, 'ENOENT', 'no-such-file', 126, `${program}: cannot be reached (${why}); check the path`);
}

function no(
  path: string | null,
  code: ResolveFailureCode,
  cause: Unresolved['cause'],
  exitCode: 126 | 127,
  message: string,
  interpreter: string | null = null,
): Unresolved {
  return { ok: false, path, code, cause, message, exitCode, interpreter };
}

function badInterpreter(file: string, exitCode: 126 | 127, interpreter: string, message: string): Unresolved {
  return no(file, 'EBADINTERP', 'missing-interpreter', exitCode, message, interpreter);
}

function chained(program: string, file: string, inner: Unresolved): Unresolved {
  return { ...inner, path: file, message: `${program}: its interpreter cannot start: ${inner.message}` };
}

function readAt(file: string, position: number, size: number): Buffer | null {
  let fd: number | null = null;
  try {
    fd = openSync(file, 'r');
    const buf = Buffer.alloc(size);
    return buf.subarray(0, readSync(fd, buf, 0, size, position));
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

function statOf(file: string): { stats: Stats } | { errno: string } {
  try {
    return { stats: statSync(file) };
  } catch (error) {
    return { errno: (error as NodeJS.ErrnoException).code ?? 'ENOENT' };
  }
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function isSymlink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

function linkTarget(file: string): string {
  try {
    return readlinkSync(file);
  } catch {
    return 'a missing file';
  }
}

function modeOf(stats: Stats): string {
  return (stats.mode & 0o7777).toString(8);
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

// Interpreter names come from file bytes: make control characters (a CR above all) visible.
function show(text: string): string {
  return text.replace(/[\x00-\x1f\x7f]/g, (c) =>
    c === '\r' ? '\\r' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}
