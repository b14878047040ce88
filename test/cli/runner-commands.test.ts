import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.js';
import { newRunnerJob, runStep } from '../helpers/github-runner.js';
import { readValidJunit } from '../helpers/junit-schema.js';

// A stage's own workflow commands under safe-run, read as the GitHub runner reads a step's log.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-runner-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const STAMP = /^\d\d:\d\d:\d\d\.\d{3} /m;
const SECRET = 'Sekr3t-value-77';

function writeScript(dir: string, name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

function linesOf(text: string): string[] {
  return text.split('\n');
}

describe('a stage of a GitHub step', () => {
  it('passes its ::warning:: and ::add-mask:: lines to the log as written, and masks the value from then on', async () => {
    const job = newRunnerJob(path.join(root, 'mask'));
    writeScript(
      job.workspace,
      'emit.sh',
      [
        `echo "::add-mask::${SECRET}" >&2`,
        'echo "::warning file=src/a.c,line=3::careful" >&2',
        `echo "token ${SECRET} used" >&2`,
        `echo "out ${SECRET}"`,
        'exit 1',
      ].join('\n'),
    );
    const step = `"${BIN}" --no-facts --junit junit.xml --report report.json -c "sh emit.sh | cat"\n`;
    const { code, log, view } = await runStep(job, step);
    expect(code).toBe(1);
    const lines = linesOf(log);
    expect(lines).toContain(`::add-mask::${SECRET}`);
    expect(lines).toContain('::warning file=src/a.c,line=3::careful');
    expect(lines).toContain('token *** used');
    // In clear: the add-mask line, which the runner reads and never shows, and the product (the last
    // stage's stdout, byte for byte), which the runner masks itself once the value is registered.
    expect(lines.filter((line) => line.includes(SECRET))).toEqual([`::add-mask::${SECRET}`, `out ${SECRET}`]);
    expect(view.shown.filter((line) => line.includes(SECRET))).toEqual([]);
    expect(view.masks).toEqual([SECRET]);
    expect(view.annotations).toContainEqual({
      level: 'warning',
      props: { file: 'src/a.c', line: '3' },
      message: 'careful',
    });
    const own = view.annotations.find((a) => a.level === 'error')!;
    expect(own.props.title).toContain('safe-run: stage 1 "sh" failed with exit 1');
    for (const file of [
      job.files.summary,
      path.join(job.workspace, 'junit.xml'),
      path.join(job.workspace, 'report.json'),
    ]) {
      const text = fs.readFileSync(file, 'utf8');
      expect(text, file).not.toContain(SECRET);
    }
    await readValidJunit(path.join(job.workspace, 'junit.xml'));
    const report = JSON.parse(fs.readFileSync(path.join(job.workspace, 'report.json'), 'utf8'));
    expect(report.stages[0].stderr.text).toContain('token *** used');
    expect(report.stages[1].stdout.text).toBe('out ***\n');
    expect(log).not.toMatch(STAMP);
  });

  it('keeps the start of every stage line (what a problem matcher reads), naming the stage on a line of its own', async () => {
    const job = newRunnerJob(path.join(root, 'matcher'));
    writeScript(
      job.workspace,
      'cc.sh',
      'echo "src/b.c:4:5: error: bad thing" >&2\necho "note" >&2\nexit 2\n',
    );
    const { log } = await runStep(job, `"${BIN}" --no-facts -c "sh cc.sh | cat"\n`);
    const lines = linesOf(log);
    const at = lines.indexOf('src/b.c:4:5: error: bad thing');
    expect(at).toBeGreaterThan(0);
    expect(lines[at - 1]).toBe('[sh]');
    expect(lines[at + 1]).toBe('note');
    expect(log).not.toMatch(STAMP);
  });

  it("never lets safe-run's own lines that quote a stage's ##[ command be read again", async () => {
    const job = newRunnerJob(path.join(root, 'old-form'));
    writeScript(job.workspace, 'old.sh', 'echo "##[error]from-stage" >&2\nexit 3\n');
    const { view } = await runStep(job, `"${BIN}" --no-facts -c "sh old.sh"\n`);
    const fromStage = view.annotations.filter((a) => a.level === 'error' && a.message === 'from-stage');
    // Once, from the stage's own live line; the group and next quote it inertly.
    expect(fromStage).toHaveLength(1);
    expect(view.shown.filter((line) => line.includes('##[error]from-stage'))).toHaveLength(2);
  });
});

describe('timestamps of safe-run', () => {
  const cases: [string, Record<string, string>, string[], boolean][] = [
    ['GitHub stamps its log itself', { CI: 'true', GITHUB_ACTIONS: 'true' }, [], false],
    ['GitLab stamps its log itself', { CI: 'true', GITLAB_CI: 'true' }, [], false],
    ['another CI system does not', { CI: 'true' }, [], true],
    [
      '--timestamps asks for them under GitHub',
      { CI: 'true', GITHUB_ACTIONS: 'true' },
      ['--timestamps'],
      true,
    ],
  ];
  for (const [title, env, flags, stamped] of cases) {
    it(`are ${stamped ? 'on' : 'off'} when ${title}`, async () => {
      const result = await runCli([...flags, '--no-facts', '-c', "sh -c 'echo line >&2'"], { env });
      expect(result.code).toBe(0);
      if (stamped) expect(result.stderr).toMatch(/^\d\d:\d\d:\d\d\.\d{3} line$/m);
      else expect(result.stderr).not.toMatch(STAMP);
    });
  }
});
