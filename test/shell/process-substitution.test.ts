import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectSameAsBash } from '../helpers/against-bash.js';
import { runCli, runJson } from '../helpers/cli.js';

// <(LIST) and >(LIST) in a command's words and a redirection's target run as jobs of the shell, their
// programs supervised stages of the run, and give bash's output and statuses. They were refused.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'process-subst-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, LANG: 'C.UTF-8' };

const same = (text: string, expected: string) => expectSameAsBash(text, expected, root, env);

describe('process substitution, as bash', () => {
  it.each([
    ['a program reads one', 'cat <(echo hi)', 'hi\n'],
    [
      'two, compared',
      'diff <(printf "a\\nb\\n") <(printf "a\\nc\\n"); echo "diff=$?"',
      '2c2\n< b\n---\n> c\ndiff=1\n',
    ],
    ['side by side', 'paste <(seq 3) <(seq 4 6)', '1\t4\n2\t5\n3\t6\n'],
    [
      'a loop reads one',
      'while read l; do echo "[$l]"; done < <(printf "1\\n2\\n"); echo $?',
      '[1]\n[2]\n0\n',
    ],
    ['a builtin reads one', 'read x < <(echo val); echo "x=$x"', 'x=val\n'],
    ['a function gets its path', 'f() { cat "$1"; }; f <(echo fn)', 'fn\n'],
    ['exec keeps the descriptor', 'exec 3< <(echo three); cat <&3', 'three\n'],
    [
      'a loop that stops early lets the writer go',
      'while read l; do break; done < <(yes); echo after',
      'after\n',
    ],
    ['a reader that stops early', 'head -1 <(yes); echo $?', 'y\n0\n'],
    ['a word nobody opens', 'echo <(sleep 1) >/dev/null; echo quick', 'quick\n'],
    ['inside a pipeline', 'cat <(echo a) | tr a b', 'b\n'],
    ['inside a command substitution', 'x=$(cat <(echo sub)); echo $x', 'sub\n'],
    ["the list's status is not the command's", 'cat <(exit 3); echo $?', '0\n'],
    ['output into one', 'echo hi > >(cat); wait', 'hi\n'],
    ['tee into two', 'printf abc | tee >(wc -c) >/dev/null; wait', '3\n'],
    // Each >(list) job waits in a FIFO's open on one of libuv's threads: with its default 4, four of
    // them waited until the time limit.
    [
      'tee into six',
      'printf abc | tee >(wc -c) >(wc -c) >(wc -c) >(wc -c) >(wc -c) >(wc -c) >/dev/null; wait',
      '3\n3\n3\n3\n3\n3\n',
    ],
    // No `wait` of the text waits for a pipeline element's lists: bash leaves them to end by themselves,
    // and their output still comes; safe-run once stopped them at the text's end (under load 4 of 60
    // runs of the six lost lines).
    ['a list still running when the text ends', 'printf abc | tee >(sleep 0.5; wc -c) >/dev/null', '3\n'],
    ['common lines', 'comm -12 <(printf "a\\nb\\n") <(printf "b\\nc\\n")', 'b\n'],
    // Each waiting job once held one of libuv's four threads: five deadlocked until the time limit.
    ['five at once', 'cat <(echo a) <(echo b) <(echo c) <(echo d) <(echo e)', 'a\nb\nc\nd\ne\n'],
    [
      'ten at once',
      'paste -d, <(seq 2) <(seq 2) <(seq 2) <(seq 2) <(seq 2) <(seq 2) <(seq 2) <(seq 2) <(seq 2) <(seq 2)',
      '1,1,1,1,1,1,1,1,1,1\n2,2,2,2,2,2,2,2,2,2\n',
    ],
    // source read the FIFO with a blocking read: safe-run hung for ever, deaf to SIGTERM.
    ['source reads one', 'source <(echo V=sourced); echo $V', 'sourced\n'],
    ['. reads one', '. <(echo "f() { echo fn; }"); f', 'fn\n'],
  ])('%s', async (_what, text, expected) => {
    await same(text, expected);
  });
});

describe('process substitution is supervised', () => {
  it('ends at the time limit with 124 and the limit as the reason, not as a signal to safe-run', async () => {
    const { result, report } = await runJson(
      ['--no-facts', '--timeout', '2s', '-c', 'cat <(sleep 300; echo never)'],
      { cwd: root, env },
    );
    expect(result.code).toBe(124);
    expect(report.verdict.reason).toContain('the pipeline timeout (2.00s)');
    expect(report.verdict.reason).not.toContain('SIGTERM');
  });

  it('lets a list left running at the end of the text end before the time limit: the text was ok', async () => {
    // Its while to end once ran into a short limit, and a text that was done read as timed out (124).
    for (const limit of [
      ['--timeout', '3s'],
      ['--idle-timeout', '2s'],
    ]) {
      const { result, report } = await runJson(['--no-facts', ...limit, '-c', ': >(sleep 100)'], {
        cwd: root,
        env,
      });
      expect(result.code, `${limit.join(' ')}: ${report.verdict.reason}`).toBe(0);
      expect(report.ok).toBe(true);
    }
  });

  it('lets exec > >(tee log) end by itself: the shell no longer holds its input', async () => {
    const dir = fs.mkdtempSync(path.join(root, 'tee-'));
    const { result, report } = await runJson(['--no-facts', '-c', 'exec > >(tee log); echo hi'], {
      cwd: dir,
      env,
    });
    expect(result.code).toBe(0);
    expect(report.stages.find((stage) => stage.name === 'tee')?.status).toBe('ok');
    expect(fs.readFileSync(path.join(dir, 'log'), 'utf8')).toBe('hi\n');
  });

  it("shows the list's programs as stages of the run", async () => {
    const { result, report } = await runJson(['--no-facts', '-c', 'diff <(/bin/echo a) <(/bin/echo b)'], {
      cwd: root,
      env,
    });
    expect(result.code).toBe(1);
    const argvs = report.stages.map((stage) => stage.argv);
    expect(argvs).toContainEqual(['/bin/echo', 'a']);
    expect(argvs).toContainEqual(['/bin/echo', 'b']);
    expect(report.stages.find((stage) => stage.argv[0] === 'diff')?.exitCode).toBe(1);
  });

  it("lists a list's stages when the substitution is in a pipeline's element", async () => {
    // The job's steps were collected into the element's step, recorded before the job ended: lost.
    const { report } = await runJson(['--no-facts', '-c', 'cat <(yes) | head -1'], { cwd: root, env });
    expect(report.stages.map((stage) => stage.name).sort()).toEqual(['cat', 'head', 'yes']);
  });

  it('runs nothing under --dry-run', async () => {
    const dir = fs.mkdtempSync(path.join(root, 'dry-'));
    const result = await runCli(['--no-facts', '--dry-run', '-c', 'cat <(touch pwned) > >(touch pwned2)'], {
      cwd: dir,
      env,
    });
    expect(result.code).toBe(0);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('is refused where safe-run does not run one (an assignment), with the way out', async () => {
    const result = await runCli(['--no-facts', '-c', 'f=<(echo a); cat $f'], { cwd: root, env });
    expect(result.code).toBe(125);
    expect(result.stderr).toContain(
      '<( ... ) at column 3 is a process substitution where safe-run does not run one',
    );
    expect(result.stderr).toContain('--fallback bash');
  });
});
