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
const MAX_INTERPRETER_DEPTH = 4;

// `compgen -b` and `compgen -k` of bash 5.2.
const BUILTINS = new Set(
  '. : [ alias bg bind break builtin caller cd command compgen complete compopt continue declare dirs disown echo enable eval exec exit export false fc fg getopts hash help history jobs kill let local logout mapfile popd printf pushd pwd read readarray readonly return set shift shopt source suspend test times trap true type typeset ulimit umask unalias unset wait'.split(
    ' ',
  ),
);
const KEYWORDS = new Set(
  'if then else elif fi case esac for select while until do done in function time { } ! [[ ]] coproc'.split(
    ' ',
  ),
);

type Failure = Omit<Unresolved, 'ok'>;
type Inspection =
  | { ok: true; interpreter: string | null; warnings: string[] }
  | { ok: false; failure: Failure };

export function resolveProgram(
  program: string,
  env: Record<string, string | undefined>,
  cwd: string,
): Resolution {
  if (program === '' || program.includes('\0')) {
    const what = program === '' ? 'the program name is empty' : 'the program name contains a NUL byte';
    return fail(null, 'ENOENT', 'not-on-path', `${what}; give the program to run as the first word`, 127);
  }
  if (program.includes('/')) return resolveDirect(program, env, cwd);
  return resolveOnPath(program, env, cwd);
}

function resolveDirect(program: string, env: Record<string, string | undefined>, cwd: string): Resolution {
  const file = resolve(cwd, program);
  const st = statOf(file);
  if ('errno' in st) return missingFile(program, file, st.errno);
  if (st.stats.isDirectory()) {
    return fail(
      file,
      'EISDIR',
      'is-directory',
      `${program}: is a directory, not a program; name the program inside it`,
      126,
    );
  }
  if (!isExecutable(file)) {
    const mode = modeOf(st.stats);
    return fail(
      file,
      'EACCES',
      'not-executable',
      `${program}: is not executable (mode ${mode}); make it executable (chmod +x ${program}) or run it through its interpreter`,
      126,
    );
  }
  return finish(program, file, 'direct', [], env, cwd);
}

function resolveOnPath(program: string, env: Record<string, string | undefined>, cwd: string): Resolution {
  const pathValue = env.PATH ?? BASH_DEFAULT_PATH;
  const search = searchPath(program, pathValue, cwd, env.HOME, 'bash');
  if (search.kind === 'found') {
    const warnings: string[] = [];
    if (search.tilde) {
      warnings.push(
        `\`${program}\` was found through the PATH entry \`${search.entry}\`; only bash expands \`~\` in PATH (env, execvp and Node do not), so put the expanded directory on PATH`,
      );
    } else if (search.relative) {
      const shown = search.entry === '' ? 'an empty entry (the current directory)' : `\`${search.entry}\``;
      warnings.push(
        `\`${program}\` was found only through the relative PATH entry ${shown} as ${search.path}; this depends on the current directory, so put an absolute directory on PATH`,
      );
    }
    return finish(program, search.path, 'path-lookup', warnings, env, cwd);
  }
  if (search.kind === 'denied') {
    const st = statOf(search.path);
    const mode = 'stats' in st ? ` (mode ${modeOf(st.stats)})` : '';
    return fail(
      search.path,
      'EACCES',
      'not-executable',
      `\`${program}\`: found ${search.path} on PATH but it is not executable${mode}; make it executable (chmod +x ${search.path}) or fix PATH`,
      126,
    );
  }
  const kind = BUILTINS.has(program) ? 'builtin' : KEYWORDS.has(program) ? 'keyword' : null;
  if (kind !== null) {
    return fail(
      null,
      'ENOENT',
      'builtin',
      `\`${program}\` is a shell ${kind}, not a program; run it through a shell: safe-run -- bash -c '...'`,
      127,
    );
  }
  const notes = [`searched ${plural(search.searched, 'directory', 'directories')}`];
  for (const link of search.brokenLinks) notes.push(`${link} is a broken symlink to ${linkTarget(link)}`);
  if (search.directory !== null) notes.push(`${search.directory} is a directory`);
  const next = search.brokenLinks.length > 0 ? 'reinstall it or fix PATH' : 'install it or fix PATH';
  return fail(
    null,
    'ENOENT',
    'not-on-path',
    `\`${program}\` was not found on PATH (${notes.join('; ')}); ${next}`,
    127,
  );
}

function finish(
  program: string,
  file: string,
  via: Resolved['via'],
  warnings: string[],
  env: Record<string, string | undefined>,
  cwd: string,
): Resolution {
  const inspection = inspectExecutable(program, file, env, cwd, 0);
  if (!inspection.ok) return { ok: false, ...inspection.failure };
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

// `bash` mode follows bash's findcmd.c (tilde expansion; the first non-executable match is run and
// fails with 126, unless that first match is a directory, which makes the whole search "not found").
// `execvp` mode follows glibc's execvp as used by `/usr/bin/env` (any unusable match means 126).
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
    if (!directory && isExecutable(full)) {
      return { kind: 'found', path: full, entry, relative: !isAbsolute(dir), tilde };
    }
    loseOn ??= { path: full, directory };
  }
  if (loseOn !== null && (mode === 'execvp' || !loseOn.directory))
    return { kind: 'denied', path: loseOn.path };
  const directory = loseOn?.directory ? loseOn.path : null;
  return { kind: 'none', searched: new Set(entries).size, brokenLinks, directory };
}

// Reads the start of an executable the way the kernel (and then bash) would decide how to run it.
function inspectExecutable(
  program: string,
  file: string,
  env: Record<string, string | undefined>,
  cwd: string,
  depth: number,
): Inspection {
  const head = readHead(file, 4096);
  if (head === null) return { ok: true, interpreter: null, warnings: [] };
  if (head.bytes.length >= 4 && head.bytes.subarray(0, 4).equals(ELF_MAGIC))
    return inspectElf(program, file, head);
  const shebang = parseShebang(head.bytes);
  if (shebang !== null) return inspectShebang(program, file, shebang, env, cwd, depth);
  if (looksBinary(head.bytes.subarray(0, 128))) {
    return failed(
      file,
      'ENOEXEC',
      'bad-format',
      `${program}: is not a program this machine can run (${describeBinary(head.bytes)}); check that the file is the right download and not damaged`,
      126,
    );
  }
  return {
    ok: true,
    interpreter: FALLBACK_SHELL,
    warnings: [
      `${program} has no #! line; it will be run with ${FALLBACK_SHELL} (bash would run it with bash); add a #! line to choose its interpreter`,
    ],
  };
}

interface Shebang {
  interpreter: string;
  arg: string | null;
}

// Linux's fs/binfmt_script.c: 256 bytes, the interpreter ends at space/tab/NUL, the rest of the line
// (trimmed) is one argument. Returns null where the kernel answers ENOEXEC (bash then runs it as a script).
function parseShebang(bytes: Buffer): Shebang | null {
  const buf = Buffer.alloc(256);
  bytes.copy(buf, 0, 0, 256);
  if (buf[0] !== 0x23 || buf[1] !== 0x21) return null;
  const spacetab = (i: number) => buf[i] === 0x20 || buf[i] === 0x09;
  const terminator = (i: number) => spacetab(i) || buf[i] === 0;
  const nextNonSpacetab = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (!spacetab(i)) return i;
    return -1;
  };
  const nextTerminator = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (terminator(i)) return i;
    return -1;
  };
  const bufEnd = 255;
  let end = -1;
  for (let i = 0; i < 256 && buf[i] !== 0; i++) {
    if (buf[i] === 0x0a) {
      end = i;
      break;
    }
  }
  if (end === -1) {
    const start = nextNonSpacetab(2, bufEnd);
    if (start === -1 || nextTerminator(start, bufEnd) === -1) return null;
    end = bufEnd;
  }
  while (end > 2 && spacetab(end - 1)) end--;
  const name = nextNonSpacetab(2, end);
  if (name === -1 || name === end) return null;
  const sep = nextTerminator(name, end);
  const argStart = sep !== -1 && buf[sep] !== 0 ? nextNonSpacetab(sep, end) : -1;
  const upToNul = (from: number, to: number) => {
    const nul = buf.indexOf(0, from);
    return buf.toString('latin1', from, nul !== -1 && nul < to ? nul : to);
  };
  const interpreter = upToNul(name, sep === -1 ? end : sep);
  const arg = argStart === -1 ? null : upToNul(argStart, end);
  return { interpreter: Buffer.from(interpreter, 'latin1').toString('utf8'), arg };
}

function inspectShebang(
  program: string,
  file: string,
  shebang: Shebang,
  env: Record<string, string | undefined>,
  cwd: string,
  depth: number,
): Inspection {
  const interp = resolve(cwd, shebang.interpreter);
  const from = 'from the #! line';
  if (shebang.interpreter === '') {
    return failed(
      file,
      'EBADINTERP',
      'missing-interpreter',
      `${program}: its #! line names no interpreter; write the interpreter's path after #!`,
      126,
      '',
    );
  }
  const st = statOf(interp);
  if ('errno' in st) {
    const cr = shebang.interpreter.endsWith('\r')
      ? `; the line ends with a carriage return (Windows line endings): convert the file to LF (sed -i 's/\\r$//' ${program})`
      : '; install it or fix the #! line';
    return failed(
      file,
      'EBADINTERP',
      'missing-interpreter',
      `${program}: its interpreter ${show(shebang.interpreter)} (${from}) does not exist${cr}`,
      127,
      shebang.interpreter,
    );
  }
  if (st.stats.isDirectory() || !isExecutable(interp)) {
    const what = st.stats.isDirectory() ? 'is a directory' : 'is not executable';
    return failed(
      file,
      'EBADINTERP',
      'missing-interpreter',
      `${program}: its interpreter ${show(shebang.interpreter)} (${from}) ${what}; fix the #! line`,
      126,
      shebang.interpreter,
    );
  }
  if (depth + 1 < MAX_INTERPRETER_DEPTH) {
    const inner = inspectExecutable(shebang.interpreter, interp, env, cwd, depth + 1);
    if (!inner.ok) {
      const failure = inner.failure;
      return failed(
        file,
        failure.code,
        failure.cause,
        `${program}: its interpreter cannot start: ${failure.message}`,
        failure.exitCode,
        failure.interpreter,
      );
    }
    if (inner.interpreter !== null) {
      return {
        ok: true,
        interpreter: FALLBACK_SHELL,
        warnings: [
          `${program}: its interpreter ${shebang.interpreter} has no #! line, so ${program} will be run with ${FALLBACK_SHELL}`,
        ],
      };
    }
  }
  if (basename(shebang.interpreter) === 'env' && shebang.arg !== null) {
    return inspectEnvForm(program, file, shebang, env, cwd, depth);
  }
  return { ok: true, interpreter: null, warnings: [] };
}

// `#!/usr/bin/env NAME` and `#!/usr/bin/env -S NAME ARGS`: env looks NAME up on the child's PATH.
function inspectEnvForm(
  program: string,
  file: string,
  shebang: Shebang,
  env: Record<string, string | undefined>,
  cwd: string,
  depth: number,
): Inspection {
  const arg = shebang.arg ?? '';
  const split = /^(?:-v*S|--split-string[= ]?)(.*)$/.exec(arg);
  if (split === null && arg.startsWith('-')) return { ok: true, interpreter: null, warnings: [] };
  let pathValue = env.PATH ?? EXECVP_DEFAULT_PATH;
  let name: string | null = arg;
  if (split !== null) {
    name = null;
    const words = (split[1] ?? '')
      .trim()
      .split(/[ \t]+/)
      .filter((word) => word !== '');
    for (let i = 0; i < words.length; i++) {
      const word = words[i]!;
      if (/^-[uCP]$/.test(word)) i++;
      else if (word.startsWith('-')) continue;
      else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) {
        if (word.startsWith('PATH=')) pathValue = word.slice(5);
      } else {
        name = word;
        break;
      }
    }
    if (name === null) return { ok: true, interpreter: null, warnings: [] };
  }
  const line = `#!${shebang.interpreter} ${arg}`;
  const spaced =
    split === null && /[ \t]/.test(name)
      ? `; without -S, env looks for a program literally named "${name}": write #!/usr/bin/env -S ${name}`
      : '; install it or fix the #! line';
  let target: string | null;
  if (name.includes('/')) {
    const direct = resolve(cwd, name);
    const st = statOf(direct);
    if ('errno' in st) target = null;
    else if (st.stats.isDirectory() || !isExecutable(direct)) {
      return failed(
        file,
        'EBADINTERP',
        'missing-interpreter',
        `${program}: its interpreter ${name} (from ${line}) is not executable; fix the #! line`,
        126,
        name,
      );
    } else target = direct;
  } else {
    const search = searchPath(name, pathValue, cwd, env.HOME, 'execvp');
    if (search.kind === 'denied') {
      return failed(
        file,
        'EBADINTERP',
        'missing-interpreter',
        `${program}: its interpreter \`${name}\` (from ${line}) was found at ${search.path} but is not executable; fix it or PATH`,
        126,
        name,
      );
    }
    if (search.kind === 'none') {
      return failed(
        file,
        'EBADINTERP',
        'missing-interpreter',
        `${program}: its interpreter \`${name}\` (from ${line}) is not on PATH (searched ${plural(search.searched, 'directory', 'directories')})${spaced}`,
        127,
        name,
      );
    }
    target = search.path;
  }
  if (target === null) {
    return failed(
      file,
      'EBADINTERP',
      'missing-interpreter',
      `${program}: its interpreter ${name} (from ${line}) does not exist${spaced}`,
      127,
      name,
    );
  }
  if (depth + 1 < MAX_INTERPRETER_DEPTH) {
    const inner = inspectExecutable(name, target, env, cwd, depth + 1);
    if (!inner.ok) {
      const failure = inner.failure;
      return failed(
        file,
        failure.code,
        failure.cause,
        `${program}: its interpreter cannot start: ${failure.message}`,
        failure.exitCode,
        failure.interpreter,
      );
    }
  }
  return { ok: true, interpreter: null, warnings: [] };
}

const ELF_MAGIC = Buffer.from([0x7f, 0x45, 0x4c, 0x46]);

// e_machine values this machine runs natively.
const NATIVE_MACHINES: Record<string, { name: string; machines: number[] }> = {
  x64: { name: 'x86_64', machines: [62, 3] },
  ia32: { name: 'i386', machines: [3] },
  arm64: { name: 'aarch64', machines: [183, 40] },
  arm: { name: 'arm', machines: [40] },
  riscv64: { name: 'riscv64', machines: [243] },
  ppc64: { name: 'ppc64', machines: [21] },
  s390x: { name: 's390x', machines: [22] },
  loong64: { name: 'loongarch64', machines: [258] },
};
const MACHINE_NAMES: Record<number, string> = {
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

function inspectElf(program: string, file: string, head: Head): Inspection {
  const b = head.bytes;
  const is64 = b[4] === 2;
  const le = b[5] === 1;
  const headerSize = is64 ? 64 : 52;
  if ((b[4] !== 1 && b[4] !== 2) || (b[5] !== 1 && b[5] !== 2) || b.length < headerSize) {
    return failed(
      file,
      'ENOEXEC',
      'bad-format',
      `${program}: is a damaged or truncated ELF file; reinstall it`,
      126,
    );
  }
  const u16 = (buf: Buffer, at: number) => (le ? buf.readUInt16LE(at) : buf.readUInt16BE(at));
  const u32 = (buf: Buffer, at: number) => (le ? buf.readUInt32LE(at) : buf.readUInt32BE(at));
  const word = (buf: Buffer, at: number) =>
    is64 ? Number(le ? buf.readBigUInt64LE(at) : buf.readBigUInt64BE(at)) : u32(buf, at);
  const type = u16(b, 16);
  if (type !== 2 && type !== 3) {
    const what = type === 1 ? 'an object file' : type === 4 ? 'a core dump' : 'not an executable';
    return failed(
      file,
      'ENOEXEC',
      'bad-format',
      `${program}: is an ELF file but ${what}, not a program; check the build output`,
      126,
    );
  }
  const machine = u16(b, 18);
  const native = NATIVE_MACHINES[process.arch];
  if (native !== undefined && !native.machines.includes(machine) && !hasForeignHandlers()) {
    const theirs = MACHINE_NAMES[machine] ?? `machine type ${machine}`;
    return failed(
      file,
      'ENOEXEC',
      'bad-format',
      `${program}: is a program for ${theirs}, but this machine is ${native.name}; install the ${native.name} build`,
      126,
    );
  }
  const loader = elfInterpreter(head, is64, u16, u32, word);
  if (loader === null) return { ok: true, interpreter: null, warnings: [] };
  const st = statOf(loader);
  if ('errno' in st || st.stats.isDirectory() || !isExecutable(loader)) {
    const exists = !('errno' in st);
    return failed(
      file,
      'EBADINTERP',
      'missing-interpreter',
      `${program}: its ELF interpreter (dynamic loader) ${loader} ${exists ? 'is not usable' : 'does not exist'}; the program was built for another system (for example musl or another distribution), so install a build for this one`,
      exists ? 126 : 127,
      loader,
    );
  }
  return { ok: true, interpreter: null, warnings: [] };
}

function elfInterpreter(
  head: Head,
  is64: boolean,
  u16: (buf: Buffer, at: number) => number,
  u32: (buf: Buffer, at: number) => number,
  word: (buf: Buffer, at: number) => number,
): string | null {
  const b = head.bytes;
  const phoff = word(b, is64 ? 32 : 28);
  const phentsize = u16(b, is64 ? 54 : 42);
  const phnum = u16(b, is64 ? 56 : 44);
  if (phentsize < (is64 ? 56 : 32) || phnum === 0 || phnum > 4096) return null;
  const table = readAt(head.file, phoff, phentsize * phnum);
  if (table === null) return null;
  for (let i = 0; i + phentsize <= table.length; i += phentsize) {
    if (u32(table, i) !== 3) continue;
    const offset = word(table, i + (is64 ? 8 : 4));
    const size = word(table, i + (is64 ? 32 : 16));
    const text = readAt(head.file, offset, Math.min(size, 4096));
    if (text === null) return null;
    const nul = text.indexOf(0);
    return text.toString('utf8', 0, nul === -1 ? text.length : nul);
  }
  return null;
}

// binfmt_misc handlers (qemu-user, wine...) may run foreign binaries; then the kernel decides, not us.
function hasForeignHandlers(): boolean {
  try {
    return readdirSync('/proc/sys/fs/binfmt_misc').some((name) => name !== 'register' && name !== 'status');
  } catch {
    return false;
  }
}

// bash's check_binary_file(): a NUL byte in the first line (first two lines after #!) of the sample.
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

interface Head {
  file: string;
  bytes: Buffer;
}

function readHead(file: string, size: number): Head | null {
  const bytes = readAt(file, 0, size);
  return bytes === null ? null : { file, bytes };
}

function readAt(file: string, position: number, size: number): Buffer | null {
  let fd: number | null = null;
  try {
    fd = openSync(file, 'r');
    const buf = Buffer.alloc(size);
    const n = readSync(fd, buf, 0, size, position);
    return buf.subarray(0, n);
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

function missingFile(program: string, file: string, errno: string): Unresolved {
  if (errno === 'ENOENT' && isSymlink(file)) {
    return fail(
      file,
      'ENOENT',
      'no-such-file',
      `${program}: is a broken symlink to ${linkTarget(file)}; reinstall it or fix the link`,
      127,
    );
  }
  if (errno === 'ENOENT') {
    return fail(
      file,
      'ENOENT',
      'no-such-file',
      `${program}: no such file (${file}); check the path and the working directory`,
      127,
    );
  }
  if (errno === 'EACCES') {
    return fail(
      file,
      'EACCES',
      'not-executable',
      `${program}: permission denied on a directory on the way to ${file}; fix the directory permissions`,
      126,
    );
  }
  const why =
    errno === 'ENOTDIR'
      ? 'a part of the path is not a directory'
      : errno === 'ELOOP'
        ? 'too many levels of symbolic links'
        : errno;
  return fail(file, 'ENOENT', 'no-such-file', `${program}: cannot be reached (${why}); check the path`, 126);
}

function fail(
  path: string | null,
  code: ResolveFailureCode,
  cause: Unresolved['cause'],
  message: string,
  exitCode: 126 | 127,
  interpreter: string | null = null,
): Unresolved {
  return { ok: false, path, code, cause, message, exitCode, interpreter };
}

function failed(
  path: string | null,
  code: ResolveFailureCode,
  cause: Unresolved['cause'],
  message: string,
  exitCode: 126 | 127,
  interpreter: string | null = null,
): Inspection {
  const { ok: _ok, ...failure } = fail(path, code, cause, message, exitCode, interpreter);
  return { ok: false, failure };
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
