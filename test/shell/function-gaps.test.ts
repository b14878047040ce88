import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectSameAsBash } from '../helpers/against-bash.js';
import { runCli } from '../helpers/cli.js';

// Functions, traps and the shell's own variables where safe-run's interpreter once answered otherwise
// than bash -o pipefail: each row is run by both in a fresh directory and must give bash's exit code
// and stdout, which is written in the row too (a machine whose bash does otherwise fails the row).

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'function-gaps-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, LANG: 'C.UTF-8' };

const same = (text: string, expected: string) => expectSameAsBash(text, expected, root, env);

describe('break and continue in a function called from a loop', () => {
  it.each([
    ['break leaves no loop of the caller', 'f() { break; }; for i in 1 2; do f; echo $i; done', '1\n2\n'],
    [
      'continue neither, and its status is 0',
      'f() { continue; echo "s $?"; }; for i in 1 2; do f; echo $i; done',
      's 0\n1\ns 0\n2\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('the ERR trap and functions', () => {
  it.each([
    [
      'one set in a function runs for its later failures, and its return ends the function',
      `f() { trap 'return 5' ERR; false; echo never; }; f; echo "rc $?"`,
      'rc 5\n',
    ],
    [
      'one set in a function runs before set -e ends the shell',
      `f() { trap 'echo "ERR in f"' ERR; false; }; set -e; f; echo after`,
      'ERR in f\n',
    ],
    [
      'the caller’s is not the function’s without set -E, and is back after it',
      `trap 'echo outer' ERR; f() { false; echo in; trap; }; f; false`,
      'in\nouter\n',
    ],
    [
      'a call that returned from its own trap runs it again only when one was set as it was called',
      `f() { trap 'echo T; return 5' ERR; false; }; f; echo "[$?]"; f 2>/dev/null; echo end`,
      'T\n[5]\nT\nT\nend\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('unset of a caller’s local', () => {
  it.each([
    [
      'shows the value the local hid',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
      'x=g; f() { local x=l; g; echo "f ${x-unset}"; }; g() { echo $x; unset x; echo "[${x-unset}]"; }; f',
      'l\n[g]\nf g\n',
    ],
    [
      'each unset goes one scope further out',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
      'x=g; f() { local x=l; g; }; g() { unset x; unset x; echo "[${x-unset}]"; }; f; echo "top [${x-unset}]"',
      '[unset]\ntop [unset]\n',
    ],
    [
      'an assignment after it reaches the global',
      'f() { local x=l; g; echo "f $x"; }; g() { unset x; x=set; }; f; echo "top $x"',
      'f set\ntop set\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('failglob’s no match', () => {
  it.each([
    ['ends the shell', 'shopt -s failglob; echo *.zzz; echo "after $?"', ''],
    [
      'also in a function, an || list or a loop',
      'shopt -s failglob; f() { for i in 1; do echo *.zzz || echo or; done; echo in; }; f; echo after',
      '',
    ],
    [
      'ends a subshell only',
      'shopt -s failglob; (echo *.zzz; echo in); x=$(echo *.zzz; echo in); echo "after [$x] $?"',
      'after [] 1\n',
    ],
    [
      'ends an eval or a sourced file only',
      'shopt -s failglob; eval "echo *.zzz; echo in"; echo "after $?"; echo "echo *.zzz; echo in" > s; . ./s; echo "after $?"',
      'after 1\nafter 1\n',
    ],
    [
      'runs the EXIT trap',
      'shopt -s failglob; trap "echo bye" EXIT; for f in *.zzz; do :; done; echo after',
      'bye\n',
    ],
    [
      'in a program’s redirection fails that command only',
      'shopt -s failglob; cat < *.zzz; echo "after $?"',
      'after 1\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });

  it('says so as bash does, with status 1', async () => {
    const result = await runCli(['--no-facts', '-q', '-c', 'shopt -s failglob; echo *.zzz; echo after'], {
      cwd: root,
      env,
    });
    expect(result.stdout).toBe('');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('bash: line 1: no match: *.zzz\n');
  });
});

describe('FUNCNAME', () => {
  it.each([
    [
      'is an array of the functions called, innermost first',
      `f() { echo "\${#FUNCNAME[@]}" "\${FUNCNAME[1]}" "\${FUNCNAME[*]}"; declare -p FUNCNAME; }; g() { f; }; g`,
      '2 g f g\ndeclare -a FUNCNAME=([0]="f" [1]="g")\n',
    ],
    [
      'is declared with no elements outside functions',
      `declare -p FUNCNAME; echo "[\${FUNCNAME-unset}] \${#FUNCNAME[@]}"`,
      'declare -a FUNCNAME\n[unset] 0\n',
    ],
    [
      'has a caller under set -u',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
      'set -u; log() { echo "[${FUNCNAME[1]}] $*"; }; main() { log hi; }; main',
      '[main] hi\n',
    ],
    [
      'names the function in its ERR trap (one it set itself runs not for its own call)',
      `set -E; f() { trap 'echo "trap \${FUNCNAME[0]} \${#FUNCNAME[@]}"' ERR; false; }; f`,
      'trap f 1\n',
    ],
    [
      'has `source` for a sourced file, and in the EXIT trap the function exit ended',
      `echo 'f' > s; f() { echo "\${FUNCNAME[*]}"; }; g() { . ./s; }; g; trap 'echo "[\${FUNCNAME[*]}] $1"' EXIT; h() { exit; }; h a`,
      'f source g\n[h] a\n',
    ],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });

  it('ends with `main` in a script file, as bash FILE gives it', async () => {
    const dir = fs.mkdtempSync(path.join(root, 'script-'));
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
    const text = 'f() { echo "${FUNCNAME[*]} ${FUNCNAME[-1]}"; }\nf\necho f > s\n. ./s\n';
    fs.writeFileSync(path.join(dir, 'x.sh'), text);
    const bash = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', 'x.sh'], {
      cwd: dir,
      env,
      encoding: 'utf8',
    });
    expect(bash.stdout).toBe('f main main\nf source main main\n');
    const ours = await runCli(['--no-facts', '-q', '--script', 'x.sh'], { cwd: dir, env });
    expect({ code: ours.code, stdout: ours.stdout }).toEqual({ code: bash.status, stdout: bash.stdout });
  });
});

describe('FUNCNEST, and how deep calls may nest without it', () => {
  it.each([
    [
      'a call deeper than FUNCNEST drops the rest of its line',
      'FUNCNEST=3; f() { n=$((n+1)); f; }; f || echo caught; echo same line\necho next $? $n',
      'next 1 3\n',
    ],
    [
      'a subshell keeps the depth',
      'FUNCNEST=3; g() { (f); echo sub $?; }; f() { n=$((n+1)); g; }; f; echo end $n',
      'sub 1\nend 1\n',
    ],
    [
      'a value that is not all a number sets no limit',
      'FUNCNEST=2x; f() { n=$((n+1)); [ $n -lt 50 ] && f; }; f; echo $n',
      '50\n',
    ],
    ['blanks around the number', 'FUNCNEST=" 3 "; f() { n=$((n+1)); f; }; f\necho $n', '3\n'],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });

  // Each level is a pipeline running at once with the others, each listening for errors of safe-run's
  // own stdout and stderr: past 10, Node printed a MaxListenersExceededWarning on stderr.
  it('runs a function piped into itself 15 deep without a word of Node on stderr', async () => {
    const result = await runCli(['--no-facts', '-q', '-c', 'FUNCNEST=15; f(){ f | cat; }; f; echo after'], {
      cwd: root,
      env,
    });
    expect(result.stdout).toBe('after\n');
    expect(result.stderr).toBe('environment: line 1: f: maximum function nesting level exceeded (15)\n');
  });

  // bash has no limit and dies of SIGSEGV when its stack runs out; safe-run's calls live on the heap,
  // so a function that calls itself by mistake grew it without end (1 GB in a minute) before this.
  it('stops a call 10,000 deep with a message and status 1 when FUNCNEST is not set', async () => {
    // 10,000 calls take 3-4 s on a quiet machine and 25 s at load 10: the deadline follows the work.
    const result = await runCli(['--no-facts', '-q', '-c', 'f() { n=$((n+1)); f; }; f\necho next $? $n'], {
      cwd: root,
      env,
      deadlineMs: 110_000,
    });
    expect(result.stdout).toBe('next 1 10000\n');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('f: maximum function nesting level exceeded (10000)');
  }, 120_000);

  // Each level of `x=$(f)` (or `f | cat`) holds a copy of the shell (and a process, through a pipe):
  // where bash forks without limit, safe-run stops such calls 500 subshells deep; FUNCNEST overrides.
  it('stops a call 500 subshells deep when FUNCNEST is not set, and FUNCNEST goes past it', async () => {
    const text = 'f() { echo $BASH_SUBSHELL > depth; x=$(f); }; f; echo next $?; cat depth';
    const own = await runCli(['--no-facts', '-q', '-c', text], { cwd: root, env, deadlineMs: 60_000 });
    expect(own.stdout).toBe('next 1\n499\n');
    expect(own.stderr).toBe(
      "environment: line 1: f: maximum function nesting level exceeded (500): in subshells nested 500 deep: safe-run's own limit, where bash would fork until no process is left; set FUNCNEST to change it\n",
    );
    const set = await runCli(['--no-facts', '-q', '-c', `FUNCNEST=520; ${text}`], {
      cwd: root,
      env,
      deadlineMs: 60_000,
    });
    expect(set.stdout).toBe('next 1\n519\n');
    expect(set.stderr).toBe('environment: line 1: f: maximum function nesting level exceeded (520)\n');
  }, 70_000);
});
