import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Resolution, resolveProgram } from '../../../src/engine/resolve/resolve-program.js';
import { bashStatus, putFile, scratchDir } from '../../helpers/index.js';

// Every case is a real file in a temp dir, and every exit code is checked against real bash running
// the same program with the same PATH and working directory.

const scratch = scratchDir('safe-run-resolve-');
afterAll(() => scratch.remove());
const freshDir = scratch.fresh;
// Executable unless told otherwise: most cases are programs.
const put = (dir: string, name: string, content: string | Buffer, mode = 0o755) =>
  putFile(dir, name, content, mode);

const SCRIPT = '#!/bin/sh\nexit 0\n';

function envWith(pathValue: string | undefined): Record<string, string | undefined> {
  return { HOME: process.env.HOME, PATH: pathValue };
}

function expectFailure(resolution: Resolution): Extract<Resolution, { ok: false }> {
  if (resolution.ok) throw new Error(`expected a failure, got ${JSON.stringify(resolution)}`);
  return resolution;
}

function expectSuccess(resolution: Resolution): Extract<Resolution, { ok: true }> {
  if (!resolution.ok) throw new Error(`expected success, got ${JSON.stringify(resolution)}`);
  return resolution;
}

// Resolves, then checks that bash agrees on the exit code (126/127, or 0 when the program runs).
function resolveLikeBash(program: string, env: Record<string, string | undefined>, cwd: string): Resolution {
  const resolution = resolveProgram(program, env, cwd);
  const expected = resolution.ok ? 0 : resolution.exitCode;
  expect(bashStatus(program, env, cwd)).toBe(expected);
  return resolution;
}

describe('a program named with a slash', () => {
  it('resolves an executable file against the working directory', () => {
    const dir = freshDir();
    const file = put(dir, 'tool', SCRIPT);
    const resolved = expectSuccess(resolveLikeBash('./tool', envWith('/usr/bin:/bin'), dir));
    expect(resolved).toEqual({ ok: true, path: file, via: 'direct', warnings: [], interpreter: null });
  });

  it('reports a missing file as ENOENT with exit 127', () => {
    const dir = freshDir();
    const failure = expectFailure(resolveLikeBash('./nope', envWith('/usr/bin:/bin'), dir));
    expect(failure).toMatchObject({
      code: 'ENOENT',
      cause: 'no-such-file',
      exitCode: 127,
      path: join(dir, 'nope'),
    });
    expect(failure.message).toContain('no such file');
  });

  it('names the target of a broken symlink', () => {
    const dir = freshDir();
    symlinkSync('/gone/poetry', join(dir, 'poetry'));
    const failure = expectFailure(resolveLikeBash('./poetry', envWith('/usr/bin:/bin'), dir));
    expect(failure).toMatchObject({ code: 'ENOENT', cause: 'no-such-file', exitCode: 127 });
    expect(failure.message).toContain('broken symlink to /gone/poetry');
  });

  it('reports a directory as EISDIR with exit 126', () => {
    const dir = freshDir();
    mkdirSync(join(dir, 'sub'));
    const failure = expectFailure(resolveLikeBash('./sub', envWith('/usr/bin:/bin'), dir));
    expect(failure).toMatchObject({ code: 'EISDIR', cause: 'is-directory', exitCode: 126 });
  });

  it('reports a file without execute permission as EACCES with exit 126', () => {
    const dir = freshDir();
    put(dir, 'plain.sh', SCRIPT, 0o644);
    const failure = expectFailure(resolveLikeBash('./plain.sh', envWith('/usr/bin:/bin'), dir));
    expect(failure).toMatchObject({ code: 'EACCES', cause: 'not-executable', exitCode: 126 });
    expect(failure.message).toContain('chmod +x ./plain.sh');
  });

  it('reports a path through a regular file with the exit code bash uses (126)', () => {
    const dir = freshDir();
    put(dir, 'tool', SCRIPT);
    const failure = expectFailure(resolveLikeBash('./tool/', envWith('/usr/bin:/bin'), dir));
    expect(failure).toMatchObject({ cause: 'no-such-file', exitCode: 126 });
    expect(failure.message).toContain('not a directory');
  });
});

describe('a program looked up on PATH', () => {
  it('takes the first executable file, skipping an earlier non-executable one', () => {
    const dir = freshDir();
    put(dir, 'a/foo', SCRIPT, 0o644);
    const wanted = put(dir, 'b/foo', SCRIPT);
    const resolved = expectSuccess(resolveLikeBash('foo', envWith(`${dir}/a:${dir}/b`), dir));
    expect(resolved).toMatchObject({ path: wanted, via: 'path-lookup', warnings: [] });
  });

  it('reports Permission denied (126) for a match that is not executable', () => {
    const dir = freshDir();
    const file = put(dir, 'a/foo', SCRIPT, 0o644);
    const failure = expectFailure(resolveLikeBash('foo', envWith(`${dir}/a:/usr/bin`), dir));
    expect(failure).toMatchObject({ code: 'EACCES', cause: 'not-executable', exitCode: 126, path: file });
    expect(failure.message).toContain(`found ${file} on PATH but it is not executable`);
  });

  it('reports nothing found as not on PATH (127), counting the directories searched', () => {
    const dir = freshDir();
    const failure = expectFailure(resolveLikeBash('no-such-tool-xyz', envWith(`${dir}:/usr/bin:/bin`), dir));
    expect(failure).toMatchObject({ code: 'ENOENT', cause: 'not-on-path', exitCode: 127, path: null });
    expect(failure.message).toBe(
      '`no-such-tool-xyz` was not found on PATH (searched 3 directories); install it or fix PATH',
    );
  });

  it('mentions a broken symlink with the program name on PATH', () => {
    const dir = freshDir();
    mkdirSync(join(dir, 'bin'));
    symlinkSync('/gone/venv/bin/poetry', join(dir, 'bin', 'poetry'));
    const failure = expectFailure(resolveLikeBash('poetry', envWith(`${dir}/bin`), dir));
    expect(failure.cause).toBe('not-on-path');
    expect(failure.message).toContain(`${dir}/bin/poetry is a broken symlink to /gone/venv/bin/poetry`);
  });

  it('treats a directory as the first match the way bash does: the whole search finds nothing', () => {
    const dir = freshDir();
    mkdirSync(join(dir, 'c/foo'), { recursive: true });
    put(dir, 'a/foo', SCRIPT, 0o644);
    const failure = expectFailure(resolveLikeBash('foo', envWith(`${dir}/c:${dir}/a`), dir));
    expect(failure).toMatchObject({ cause: 'not-on-path', exitCode: 127 });
    expect(failure.message).toContain(`${dir}/c/foo is a directory`);
    const other = expectFailure(resolveLikeBash('foo', envWith(`${dir}/a:${dir}/c`), dir));
    expect(other).toMatchObject({ cause: 'not-executable', exitCode: 126 });
  });

  it('treats an empty PATH entry as the current directory and warns about it', () => {
    const dir = freshDir();
    const file = put(dir, 'here-tool', SCRIPT);
    for (const pathValue of [':/usr/bin', '/usr/bin:', '/usr/bin::/bin', '']) {
      const resolved = expectSuccess(resolveLikeBash('here-tool', envWith(pathValue), dir));
      expect(resolved.path).toBe(file);
      expect(resolved.warnings).toHaveLength(1);
      expect(resolved.warnings[0]).toContain('depends on the current directory');
    }
  });

  it('resolves through a relative PATH entry to an absolute path, with a warning', () => {
    const dir = freshDir();
    const file = put(dir, 'bin/rel-tool', SCRIPT);
    const resolved = expectSuccess(resolveLikeBash('rel-tool', envWith('bin:/usr/bin'), dir));
    expect(resolved.path).toBe(file);
    expect(resolved.warnings[0]).toContain('relative PATH entry `bin`');
  });

  it('expands ~ in a PATH entry like bash, and warns that other tools do not', () => {
    const dir = freshDir();
    const file = put(dir, 'home/bin/home-tool', SCRIPT);
    const env = { HOME: join(dir, 'home'), PATH: '~/bin:/usr/bin' };
    const resolved = expectSuccess(resolveLikeBash('home-tool', env, dir));
    expect(resolved.path).toBe(file);
    expect(resolved.warnings[0]).toContain('only bash expands `~`');
  });

  it("uses bash's default PATH, which ends in `.`, when PATH is unset", () => {
    const dir = freshDir();
    const sh = expectSuccess(resolveLikeBash('sh', { HOME: process.env.HOME }, dir));
    expect(sh.path).toMatch(/\/sh$/);
    const file = put(dir, 'dot-tool', SCRIPT);
    const dot = expectSuccess(resolveLikeBash('dot-tool', { HOME: process.env.HOME }, dir));
    expect(dot.path).toBe(file);
    expect(dot.warnings[0]).toContain('depends on the current directory');
  });

  it('says that a shell builtin or keyword is not a program', () => {
    const dir = freshDir();
    for (const name of ['cd', 'export', 'source', 'alias', 'set', 'ulimit', '.']) {
      const failure = expectFailure(resolveProgram(name, envWith('/usr/bin:/bin'), dir));
      expect(failure).toMatchObject({ code: 'ENOENT', cause: 'builtin', exitCode: 127, path: null });
      expect(failure.message).toBe(
        `\`${name}\` is a shell builtin, not a program; run it through a shell: safe-run -- bash -c '...'`,
      );
    }
    const keyword = expectFailure(resolveProgram('if', envWith('/usr/bin:/bin'), dir));
    expect(keyword.message).toContain('`if` is a shell keyword');
  });

  it('prefers a real binary over the builtin of the same name', () => {
    const dir = freshDir();
    const file = put(dir, 'bin/cd', SCRIPT);
    const resolved = expectSuccess(resolveProgram('cd', envWith(`${dir}/bin`), dir));
    expect(resolved.path).toBe(file);
  });

  it('reports an empty program name as not found', () => {
    const failure = expectFailure(resolveLikeBash('', envWith('/usr/bin:/bin'), freshDir()));
    expect(failure).toMatchObject({ code: 'ENOENT', exitCode: 127 });
  });
});

describe('the interpreter line', () => {
  it('names a missing #! interpreter instead of blaming the script (exit 127, like bash)', () => {
    const dir = freshDir();
    put(dir, 'script.sh', '#!/opt/missing/python\nprint(1)\n');
    const failure = expectFailure(resolveLikeBash('./script.sh', envWith('/usr/bin:/bin'), dir));
    expect(failure).toMatchObject({
      code: 'EBADINTERP',
      cause: 'missing-interpreter',
      exitCode: 127,
      interpreter: '/opt/missing/python',
      path: join(dir, 'script.sh'),
    });
    expect(failure.message).toBe(
      './script.sh: its interpreter /opt/missing/python (from the #! line) does not exist; install it or fix the #! line',
    );
  });

  it('finds the broken interpreter of a script reached through PATH', () => {
    const dir = freshDir();
    put(dir, 'bin/poetry', '#!/opt/gone/venv/bin/python3\nimport sys\n');
    const failure = expectFailure(resolveLikeBash('poetry', envWith(`${dir}/bin:/usr/bin:/bin`), dir));
    expect(failure).toMatchObject({
      cause: 'missing-interpreter',
      interpreter: '/opt/gone/venv/bin/python3',
    });
  });

  it('points at Windows line endings when the interpreter name ends in a carriage return', () => {
    const dir = freshDir();
    put(dir, 'crlf.sh', '#!/bin/sh\r\nexit 0\r\n');
    const failure = expectFailure(resolveLikeBash('./crlf.sh', envWith('/usr/bin:/bin'), dir));
    expect(failure).toMatchObject({ cause: 'missing-interpreter', exitCode: 127, interpreter: '/bin/sh\r' });
    expect(failure.message).toContain('/bin/sh\\r');
    expect(failure.message).toContain('carriage return');
  });

  it('reports an interpreter that is not executable or is a directory with exit 126', () => {
    const dir = freshDir();
    put(dir, 'not-a-program', 'hello\n', 0o644);
    put(dir, 'a.sh', `#!${dir}/not-a-program\n`);
    put(dir, 'b.sh', `#!${dir}\n`);
    const a = expectFailure(resolveLikeBash('./a.sh', envWith('/usr/bin:/bin'), dir));
    expect(a).toMatchObject({ code: 'EBADINTERP', cause: 'missing-interpreter', exitCode: 126 });
    expect(a.message).toContain('is not executable');
    const b = expectFailure(resolveLikeBash('./b.sh', envWith('/usr/bin:/bin'), dir));
    expect(b).toMatchObject({ code: 'EBADINTERP', exitCode: 126 });
    expect(b.message).toContain('is a directory');
  });

  it('reports a #! line without an interpreter with exit 126', () => {
    const dir = freshDir();
    put(dir, 'bare', '#!');
    const failure = expectFailure(resolveLikeBash('./bare', envWith('/usr/bin:/bin'), dir));
    expect(failure).toMatchObject({ code: 'EBADINTERP', exitCode: 126 });
  });

  it('follows a nested interpreter: a script whose interpreter is a script with a missing interpreter', () => {
    const dir = freshDir();
    put(dir, 'inner', '#!/opt/missing/ruby\n');
    put(dir, 'outer', `#!${dir}/inner\nexit 0\n`);
    const failure = expectFailure(resolveLikeBash('./outer', envWith('/usr/bin:/bin'), dir));
    expect(failure).toMatchObject({
      cause: 'missing-interpreter',
      exitCode: 127,
      interpreter: '/opt/missing/ruby',
    });
  });

  it('looks up the program named by #!/usr/bin/env on the same PATH', () => {
    const dir = freshDir();
    put(dir, 'tool', '#!/usr/bin/env missing-python\nprint(1)\n');
    const failure = expectFailure(resolveLikeBash('./tool', envWith('/usr/bin:/bin'), dir));
    expect(failure).toMatchObject({
      code: 'EBADINTERP',
      cause: 'missing-interpreter',
      exitCode: 127,
      interpreter: 'missing-python',
    });
    expect(failure.message).toContain('`missing-python`');
    expect(failure.message).toContain('is not on PATH (searched 2 directories)');
  });

  it('understands env -S, including variable assignments and options before the program', () => {
    const dir = freshDir();
    put(dir, 'a', '#!/usr/bin/env -S missing-python -u\n');
    put(dir, 'b', '#!/usr/bin/env -S -i LANG=C missing-python\n');
    put(dir, 'c', '#!/usr/bin/env -S sh -e\nexit 0\n');
    for (const name of ['./a', './b']) {
      const failure = expectFailure(resolveLikeBash(name, envWith('/usr/bin:/bin'), dir));
      expect(failure).toMatchObject({
        cause: 'missing-interpreter',
        interpreter: 'missing-python',
        exitCode: 127,
      });
    }
    expectSuccess(resolveLikeBash('./c', envWith('/usr/bin:/bin'), dir));
  });

  it('explains that without -S env looks for a program named with the spaces', () => {
    const dir = freshDir();
    put(dir, 'tool', '#!/usr/bin/env sh -e\nexit 0\n');
    const failure = expectFailure(resolveLikeBash('./tool', envWith('/usr/bin:/bin'), dir));
    expect(failure).toMatchObject({ cause: 'missing-interpreter', interpreter: 'sh -e', exitCode: 127 });
    expect(failure.message).toContain('#!/usr/bin/env -S sh -e');
  });

  it('accepts an env form whose program is on PATH', () => {
    const dir = freshDir();
    put(dir, 'bin/my-interp', SCRIPT);
    put(dir, 'tool', '#!/usr/bin/env my-interp\n');
    const resolved = expectSuccess(resolveLikeBash('./tool', envWith(`${dir}/bin:/usr/bin:/bin`), dir));
    expect(resolved.interpreter).toBeNull();
  });

  it('runs an executable text file without #! through /bin/sh, as execvp does', () => {
    const dir = freshDir();
    put(dir, 'plain', 'exit 0\n');
    put(dir, 'empty', '');
    for (const name of ['./plain', './empty']) {
      const resolved = expectSuccess(resolveLikeBash(name, envWith('/usr/bin:/bin'), dir));
      expect(resolved.interpreter).toBe('/bin/sh');
      expect(resolved.warnings[0]).toContain('has no #! line');
    }
  });

  it("reports binary garbage as ENOEXEC (126) by bash's rule: a NUL byte in the first line", () => {
    const dir = freshDir();
    const garbage = Buffer.alloc(300, 0x41);
    garbage[100] = 0;
    put(dir, 'blob', garbage);
    const failure = expectFailure(resolveLikeBash('./blob', envWith('/usr/bin:/bin'), dir));
    expect(failure).toMatchObject({ code: 'ENOEXEC', cause: 'bad-format', exitCode: 126 });
    const windows = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00', 'latin1'), Buffer.alloc(100)]);
    put(dir, 'tool.exe', windows);
    const exe = expectFailure(resolveLikeBash('./tool.exe', envWith('/usr/bin:/bin'), dir));
    expect(exe.message).toContain('a Windows executable');
  });

  it('lets bash run as a script a file whose first NUL is past the 128 bytes it samples', () => {
    const dir = freshDir();
    const text = Buffer.from(`${'#'.repeat(200)}\nexit 0\n`);
    text[150] = 0;
    put(dir, 'late-nul', text);
    const resolved = expectSuccess(resolveLikeBash('./late-nul', envWith('/usr/bin:/bin'), dir));
    expect(resolved.interpreter).toBe('/bin/sh');
  });
});

describe('ELF programs', () => {
  // A real dynamically linked program from this machine, copied and patched.
  function realElf(): Buffer {
    const resolved = expectSuccess(resolveProgram('true', envWith('/usr/bin:/bin'), scratch.root));
    return readFileSync(resolved.path);
  }

  it('accepts a working ELF program', () => {
    const dir = freshDir();
    put(dir, 'true-copy', realElf());
    expectSuccess(resolveLikeBash('./true-copy', envWith('/usr/bin:/bin'), dir));
  });

  it('names a missing dynamic loader (exit 127, like bash)', () => {
    const dir = freshDir();
    const bytes = realElf();
    const text = bytes.toString('latin1');
    const loader = /\/lib[^\0]*\/ld-[^\0]*/.exec(text);
    if (loader === null) return; // a static `true`: nothing to patch
    const missing = loader[0].replace('/ld-', '/xx-');
    bytes.write(missing, loader.index, 'latin1');
    put(dir, 'musl-tool', bytes);
    const failure = expectFailure(resolveLikeBash('./musl-tool', envWith('/usr/bin:/bin'), dir));
    expect(failure).toMatchObject({
      code: 'EBADINTERP',
      cause: 'missing-interpreter',
      exitCode: 127,
      interpreter: missing,
    });
    expect(failure.message).toContain('dynamic loader');
  });

  it('reports a program built for another machine as ENOEXEC (126)', () => {
    const dir = freshDir();
    const bytes = realElf();
    const le = bytes[5] === 1;
    const other = process.arch === 'arm64' ? 62 : 183;
    if (le) bytes.writeUInt16LE(other, 18);
    else bytes.writeUInt16BE(other, 18);
    put(dir, 'foreign', bytes);
    const failure = expectFailure(resolveLikeBash('./foreign', envWith('/usr/bin:/bin'), dir));
    expect(failure).toMatchObject({ code: 'ENOEXEC', cause: 'bad-format', exitCode: 126 });
    expect(failure.message).toContain(process.arch === 'arm64' ? 'x86_64' : 'aarch64');
  });

  it('reports a truncated ELF file and an object file as ENOEXEC (126)', () => {
    const dir = freshDir();
    put(dir, 'truncated', Buffer.from('\x7fELFjunk', 'latin1'));
    const truncated = expectFailure(resolveLikeBash('./truncated', envWith('/usr/bin:/bin'), dir));
    expect(truncated).toMatchObject({ code: 'ENOEXEC', exitCode: 126 });
    const bytes = realElf();
    if (bytes[5] === 1) bytes.writeUInt16LE(1, 16);
    else bytes.writeUInt16BE(1, 16);
    put(dir, 'object.o', bytes);
    const object = expectFailure(resolveLikeBash('./object.o', envWith('/usr/bin:/bin'), dir));
    expect(object).toMatchObject({ code: 'ENOEXEC', exitCode: 126 });
    expect(object.message).toContain('an object file');
  });
});
