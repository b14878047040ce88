// Issue 16 through the real CLI: GitHub Actions and GitLab CI output for a failing pipeline, the
// step summary, JUnit read back by a JUnit parser, timestamps, the banner and masked secrets.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, type TestSuites } from 'junit2json';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { readValidJunit } from '../helpers/junit-schema.js';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-ci-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

// Stage 1 says two lines on stderr (one with the characters workflow commands must escape, one
// with a secret), then fails; stage 2 counts what reached it.
const FAILING = `sh -c 'echo hello; echo "first line" >&2; echo "bad: 100%, really $API_TOKEN" >&2; exit 3' | wc -c`;
const SECRET = 'hunter2-very-secret';
const ENV = { API_TOKEN: SECRET };

// Durations differ from run to run (and so do the table's column widths): compared with them
// replaced and runs of spaces made two.
const timeless = (text: string) => text.replaceAll(/\b\d+(\.\d+)?(ms|s)\b/g, 'T').replaceAll(/ {2,}/g, '  ');

describe('GitHub Actions', () => {
  it('prints one group per stage, the table and an ::error annotation, and appends the step summary', async () => {
    const summary = path.join(scratch, 'github-summary.md');
    fs.writeFileSync(summary, '# earlier step\n');
    const result = await runCli(['--no-facts', '-c', FAILING], {
      env: { ...ENV, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
    });
    expect(result.code).toBe(3);
    expect(result.stdout.trim()).toBe('6');
    const command = `sh -c 'echo hello; echo "first line" >&2; echo "bad: 100%, really $API_TOKEN" >&2; exit 3'`;
    const lines = result.stderr.split('\n');
    expect(lines[0]).toBe(`safe-run: running ${command} | wc -c (1 step)`);
    const from = lines.indexOf(lines.find((line) => line.startsWith('::group::'))!);
    expect(timeless(lines.slice(from).join('\n'))).toBe(
      [
        `::group::stage 1 "sh": ${command.replace('100%', '100%25')} (failed with exit 3)`,
        '[sh] first line',
        '[sh] bad: 100%, really ***',
        '::endgroup::',
        '::group::stage 2 "wc": wc -c (ok)',
        '(no stderr)',
        '::endgroup::',
        `command: ${command} | wc -c`,
        '#  STAGE  STATUS  EXIT  TIME  STDOUT  STDERR',
        '1  sh  failed  3  T  piped  49 B',
        '2  wc  ok  0  T  2 B  0 B',
        'safe-run: not ok, exit 3 (policy pipefail: stage 1 "sh" failed with exit 3)',
        'next: stage 1 "sh" failed with exit 3; its last stderr line: "bad: 100%, really ***"',
        `::error title=safe-run%3A stage 1 "sh" failed with exit 3::$ ${command.replace('100%', '100%25')}%0Afirst line%0Abad: 100%25, really ***%0Averdict: exit 3 (policy pipefail: stage 1 "sh" failed with exit 3)%0Anext: stage 1 "sh" failed with exit 3; its last stderr line: "bad: 100%25, really ***"`,
        '',
      ].join('\n'),
    );
    expect(timeless(fs.readFileSync(summary, 'utf8'))).toBe(
      [
        '# earlier step',
        '### safe-run: not ok, exit 3',
        '',
        `\`${command} | wc -c\``,
        '',
        '| # | stage | command | status | exit | time | stdout | stderr |',
        '| --: | --- | --- | --- | --- | --: | --: | --: |',
        `| 1 | sh | \`${command}\` | failed | 3 | T | piped | 49 B |`,
        '| 2 | wc | `wc -c` | ok | 0 | T | 2 B | 0 B |',
        '',
        '**verdict:** policy pipefail: stage 1 "sh" failed with exit 3',
        '',
        '**next:** stage 1 "sh" failed with exit 3; its last stderr line: "bad: 100%, really ***"',
        '',
        '',
      ].join('\n'),
    );
    expect(result.stderr).not.toContain(SECRET);
  });

  it('annotates nothing for an ok run and still writes its summary', async () => {
    const summary = path.join(scratch, 'github-ok.md');
    const result = await runCli(['--no-facts', '--', 'true'], {
      env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('::error');
    expect(fs.readFileSync(summary, 'utf8')).toMatch(/^### safe-run: ok, exit 0\n/);
  });

  it("shows a script's steps as written in the summary, not joined as one pipeline", async () => {
    const summary = path.join(scratch, 'github-script.md');
    const result = await runCli(['--no-facts', '-c', 'echo hi\nls / | wc -l\necho done'], {
      env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
    });
    expect(result.code).toBe(0);
    const text = fs.readFileSync(summary, 'utf8');
    expect(text).toContain('`echo hi\\nls / | wc -l\\necho done`');
    expect(text).not.toContain('echo hi | ls');
  });

  it('is switched off with --ci none and on with --ci github', async () => {
    const off = await runCli(['--no-facts', '--ci', 'none', '--', 'false'], {
      env: { GITHUB_ACTIONS: 'true' },
    });
    expect(off.stderr).not.toContain('::');
    const on = await runCli(['--no-facts', '--ci', 'github', '--', 'false']);
    expect(on.stderr).toContain('::error title=safe-run%3A stage 1 "false" failed with exit 1::');
  });
});

describe('GitLab CI', () => {
  it('folds each stage in a collapsed section and puts the table in a summary section', async () => {
    const result = await runCli(['--no-facts', '-c', FAILING], { env: { ...ENV, GITLAB_CI: 'true' } });
    expect(result.code).toBe(3);
    const E = '\x1b[0K';
    const stamped = result.stderr.replaceAll(/(section_(?:start|end)):\d{10}:/g, '$1:TS:');
    const command = `sh -c 'echo hello; echo "first line" >&2; echo "bad: 100%, really $API_TOKEN" >&2; exit 3'`;
    expect(stamped).toContain(
      [
        `${E}section_start:TS:safe_run_stage_1[collapsed=true]\r${E}stage 1 "sh": ${command} (failed with exit 3)`,
        '[sh] first line',
        '[sh] bad: 100%, really ***',
        `${E}section_end:TS:safe_run_stage_1\r${E}`,
        `${E}section_start:TS:safe_run_stage_2[collapsed=true]\r${E}stage 2 "wc": wc -c (ok)`,
        '(no stderr)',
        `${E}section_end:TS:safe_run_stage_2\r${E}`,
        `${E}section_start:TS:safe_run_summary\r${E}safe-run summary`,
        `command: ${command} | wc -c`,
      ].join('\n'),
    );
    expect(stamped).toMatch(/next: .*\n\x1b\[0Ksection_end:TS:safe_run_summary\r\x1b\[0K\n$/);
    const starts = [...result.stderr.matchAll(/section_start:(\d+):safe_run_stage_1/g)].map((m) =>
      Number(m[1]),
    );
    expect(Math.abs(starts[0]! - Date.now() / 1000)).toBeLessThan(600);
    expect(result.stderr).not.toContain(SECRET);
  });
});

describe('--junit', () => {
  it('writes one testcase per stage that a JUnit parser reads back', async () => {
    const file = path.join(scratch, 'junit', 'result.xml');
    fs.mkdirSync(path.dirname(file));
    const result = await runCli(
      [
        '--no-facts',
        '--junit',
        file,
        '-c',
        `${FAILING.replace("exit 3'", `printf "<&>\\033[31m" >&2; exit 3'`)} | cat`,
      ],
      { env: ENV },
    );
    expect(result.code).toBe(3);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['result.xml']);
    const xml = await readValidJunit(file);
    expect(xml).not.toContain(SECRET);
    const parsed = (await parse(xml)) as TestSuites;
    expect(parsed).toMatchObject({ name: 'safe-run', tests: 3, failures: 1, errors: 0 });
    expect(parsed.testsuite![0]).toMatchObject({ skipped: 0 });
    const cases = parsed.testsuite![0]!.testcase!;
    expect(cases.map((c) => c.name)).toEqual([
      expect.stringMatching(/^stage 1 "sh": sh -c 'echo hello;/),
      'stage 2 "wc": wc -c',
      'stage 3 "cat": cat',
    ]);
    expect(cases[0]!.failure![0]).toMatchObject({ message: 'failed with exit 3', type: 'failed' });
    expect(cases[0]!['system-err']![0]).toBe('first line\nbad: 100%, really ***\n<&>\\x1B[31m');
    expect(cases[1]!.failure).toBeUndefined();
  });

  it('refuses a --junit path in a missing directory before anything starts', async () => {
    const result = await runCli(['--no-facts', '--junit', path.join(scratch, 'nope', 'x.xml'), '--', 'true']);
    expect(result.code).toBe(125);
    expect(result.stderr).toMatch(/^safe-run: --junit .*: directory .* does not exist or is not writable\n$/);
  });
});

describe('timestamps', () => {
  it('stamps the banner, stderr lines and the table in CI, never the streamed stdout', async () => {
    const result = await runCli(['--no-facts', '-c', `sh -c 'printf "a\\nb"; echo warn >&2'`], {
      env: { CI: 'true' },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('a\nb');
    const lines = result.stderr.trimEnd().split('\n');
    for (const line of lines) expect(line).toMatch(/^\d\d:\d\d:\d\d\.\d{3} /);
    expect(lines[0]).toMatch(/ safe-run: running sh -c 'printf "a\\nb"; echo warn >&2' \(1 step\)$/);
    expect(lines[1]).toMatch(/^\S+ warn$/);
  });

  it('are off with --no-timestamps', async () => {
    const result = await runCli(['--no-facts', '--no-timestamps', '--', 'sh', '-c', 'echo warn >&2'], {
      env: { CI: 'true' },
    });
    expect(result.stderr.split('\n')[0]).toBe('warn');
  });
});
