import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/types.js';
import { BIN } from '../helpers/cli.js';
import { newRunnerJob, runStep } from '../helpers/github-runner.js';
import { readValidJunit } from '../helpers/junit-schema.js';

// A value a stage printed before its ::add-mask:: line reached safe-run (an earlier step, another
// stage of the pipeline, the same chunk) is masked in everything safe-run writes once it knows the
// value: kept text, the table and next, the groups, annotations, the step summary, JUnit and the report.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-mask-race-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

// Not in a secret-looking variable: only the stage's ::add-mask:: line makes it a secret.
const VALUE = 'pl41n-v4lue-x9';

let jobs = 0;
async function stepWith(script: string) {
  jobs += 1;
  const job = newRunnerJob(path.join(root, `job-${jobs}`));
  fs.writeFileSync(path.join(job.workspace, 'step.sh'), script);
  const shell = `${BIN} -e --no-facts --junit junit.xml --report report.json --script {0}`;
  const result = await runStep(job, fs.readFileSync(path.join(job.workspace, 'step.sh'), 'utf8'), { shell });
  return { job, ...result };
}

// What safe-run wrote after the runner read the ::add-mask:: line, and every file it wrote.
async function afterTheMask(job: { workspace: string; files: { summary: string } }, log: string) {
  const lines = log.split('\n');
  const at = lines.indexOf(`::add-mask::${VALUE}`);
  expect(at).toBeGreaterThanOrEqual(0);
  const files = ['report.json', 'junit.xml'].map((name) => path.join(job.workspace, name));
  await readValidJunit(files[1]!);
  const texts = [...files, job.files.summary].map((file) => fs.readFileSync(file, 'utf8'));
  return { later: lines.slice(at + 1), texts, report: JSON.parse(texts[0]!) as Report };
}

describe('a value registered with ::add-mask:: after it was printed', () => {
  it('is masked in the kept text of an earlier step and everything written from it', async () => {
    const script = [
      `echo "connecting with ${VALUE}" >&2`,
      `echo "::add-mask::${VALUE}" >&2`,
      `echo "again ${VALUE}" >&2`,
      'exit 3',
      '',
    ].join('\n');
    const { job, code, log } = await stepWith(script);
    expect(code).toBe(3);
    const { later, texts, report } = await afterTheMask(job, log);
    expect(later.filter((line) => line.includes(VALUE))).toEqual([]);
    for (const text of texts) expect(text).not.toContain(VALUE);
    expect(report.stages[0]!.stderr.text).toBe('connecting with ***\n');
    expect(report.stages[2]!.stderr.text).toBe('again ***\n');
  });

  it('is masked in the kept stderr of another stage of the pipeline that ended before it', async () => {
    const script = [
      `sh -c 'echo "token ${VALUE} in use" >&2; echo data' | sh -c 'cat >/dev/null; echo "::add-mask::${VALUE}" >&2; exit 4'`,
      '',
    ].join('\n');
    const { job, code, log } = await stepWith(script);
    expect(code).toBe(4);
    const { later, texts, report } = await afterTheMask(job, log);
    expect(later.filter((line) => line.includes(VALUE))).toEqual([]);
    for (const text of texts) expect(text).not.toContain(VALUE);
    expect(report.stages[0]!.stderr.text).toBe('token *** in use\n');
  });

  it('is masked when it came in the same chunk as its ::add-mask:: line', async () => {
    const script = `sh -c "printf 'first ${VALUE}\\n::add-mask::${VALUE}\\nafter ${VALUE}\\n' >&2; exit 5"\n`;
    const { job, code, log } = await stepWith(script);
    expect(code).toBe(5);
    const { later, texts, report } = await afterTheMask(job, log);
    expect(later.filter((line) => line.includes(VALUE))).toEqual([]);
    for (const text of texts) expect(text).not.toContain(VALUE);
    expect(report.stages[0]!.stderr.text).toBe('first ***\n::add-mask::***\nafter ***\n');
  });

  it('leaves no piece of it next to the cut of a kept text', async () => {
    // --max-stderr 2KiB keeps 1 KiB at each end: the first line is cut 7 bytes into the value.
    const filler = 'x'.repeat(1024 - 'head '.length - 7);
    const script = [
      `sh -c 'printf "head %s${VALUE}\\n" ${filler}; i=0; while [ $i -lt 100 ]; do echo "line $i of filler"; i=$((i+1)); done' >&2`,
      `echo "::add-mask::${VALUE}" >&2`,
      'exit 6',
      '',
    ].join('\n');
    jobs += 1;
    const job = newRunnerJob(path.join(root, `job-${jobs}`));
    const shell = `${BIN} -e --no-facts --max-stderr 2KiB --junit junit.xml --report report.json --script {0}`;
    const { code, log } = await runStep(job, script, { shell });
    expect(code).toBe(6);
    const { later, texts, report } = await afterTheMask(job, log);
    expect(report.stages[0]!.stderr.truncated).toBe(true);
    for (const text of [...later, ...texts]) expect(text).not.toContain(VALUE.slice(0, 7));
    expect(report.stages[0]!.stderr.text).toMatch(/^head x+\*\*\*\n\[\.\.\. safe-run: /);
  });
});
