import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { FIXTURES, ROOT } from '../helpers/cli.js';
import { newRunnerJob, type RunnerJob, type StepResult } from '../helpers/github-runner.js';
import { readValidJunit } from '../helpers/junit-schema.js';
import { type LocalRegistry, serveThisCheckout } from '../helpers/local-registry.js';
import { readWorkflowJob, runWorkflowJob, type StepOutcome } from '../helpers/workflow-runner.js';

// The GitHub workflow and the .gitlab-ci.yml of docs/ci.md, read out of the page and run as the
// runners run them on the example project (test/fixtures/ci/project): GitHub's steps through the
// job's `shell: safe-run -e --script {0}` after this repository's action installed safe-run, GitLab's
// script lines as one `bash -e -o pipefail` script with the job's variables. safe-run is installed
// from a stand-in for the npm registry that serves this checkout's `npm pack` tarball.

const DOC = path.join(ROOT, 'docs', 'ci.md');
const PROJECT = path.join(FIXTURES, 'ci', 'project');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-ci-docs-'));
let registry: LocalRegistry;

beforeAll(async () => {
  registry = await serveThisCheckout(root);
}, 120_000);
afterAll(async () => {
  await registry?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

// The YAML block that follows `<!-- marker -->` in docs/ci.md, exactly as the page shows it.
function documented(marker: string): string {
  const page = fs.readFileSync(DOC, 'utf8');
  const at = page.indexOf(`<!-- ${marker} -->`);
  if (at === -1) throw new Error(`docs/ci.md has no <!-- ${marker} --> block`);
  const block = /```yaml\n([\s\S]*?)```/.exec(page.slice(at));
  return block![1]!;
}

// The example project, with `edit` applied to one of its files (the commit being built).
function projectWith(name: string, edit: [string, string, string] | null): string {
  const dir = path.join(root, `project-${name}`);
  fs.cpSync(PROJECT, dir, { recursive: true });
  if (edit) {
    const file = path.join(dir, edit[0]);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(edit[1], edit[2]));
  }
  return dir;
}

// What every job of this file shares: the stand-in registry, npm's cache, a home of its own.
function machine(runner: { root: string; env: Record<string, string> }): void {
  const home = path.join(runner.root, 'home');
  fs.mkdirSync(home, { recursive: true });
  Object.assign(runner.env, {
    HOME: home,
    npm_config_registry: registry.url,
    npm_config_cache: path.join(root, 'npm-cache'),
    npm_config_update_notifier: 'false',
  });
}

function runOf(outcomes: StepOutcome[], name: string): StepResult {
  const outcome = outcomes.find((item) => item.name === name);
  if (outcome?.kind !== 'run') throw new Error(`step ${name} did not run: ${outcome?.kind}`);
  return outcome.result;
}

async function githubJob(name: string, edit: [string, string, string] | null) {
  const runner: RunnerJob = newRunnerJob(path.join(root, `github-${name}`));
  machine(runner);
  const outcomes = await runWorkflowJob(
    runner,
    readWorkflowJob(documented('github-workflow'), 'build'),
    projectWith(name, edit),
  );
  return { runner, outcomes };
}

// The log of every step that failed (the action's own steps included), for a failure message.
function failedLogs(outcomes: StepOutcome[]): string {
  const results = outcomes.flatMap((o) =>
    o.kind === 'run' ? [o.result] : o.kind === 'action' ? o.result.steps : [],
  );
  return results
    .filter((result) => result.code !== 0)
    .map((result) => `exit ${result.code}:\n${result.log}`)
    .join('\n');
}

async function junitFiles(files: string[]): Promise<string[]> {
  const xml = files.filter((file) => file.endsWith('.xml'));
  for (const file of xml) await readValidJunit(file);
  return xml.map((file) => fs.readFileSync(file, 'utf8'));
}

describe('the GitHub workflow of docs/ci.md', () => {
  it('annotates the failed check of a test step, summarises both steps and uploads their JUnit files', async () => {
    const { runner, outcomes } = await githubJob('test-fails', ['src/greet.c', '"hello, %s"', '"hello %s"']);
    expect(
      outcomes.map((o) => [o.name, o.kind]),
      failedLogs(outcomes),
    ).toEqual([
      ['actions/checkout@v4', 'checkout'],
      ['actions/setup-node@v4', 'setup-node'],
      ['OWNER/safe-run@v0.1.0', 'action'],
      ['Build', 'run'],
      ['Test', 'run'],
      ['Upload the JUnit files', 'upload'],
    ]);
    expect(runOf(outcomes, 'Build').code).toBe(0);
    const test = runOf(outcomes, 'Test');
    expect(test.code).toBe(2);
    expect(test.view.annotations.filter((a) => a.props.file !== undefined)).toEqual([
      {
        level: 'error',
        props: { file: 'tests/test_greet.c', line: '20', title: 'stage 1 "make"' },
        message: 'expected "hello, world", got "hello world"',
      },
      {
        level: 'error',
        props: { file: 'tests/test_greet.c', line: '22', title: 'stage 1 "make"' },
        message: 'expected "hello, CI", got "hello CI"',
      },
    ]);
    expect(fs.readFileSync(path.join(runner.workspace, 'test.log'), 'utf8')).toContain('2 checks, 2 failed');
    const summary = fs.readFileSync(runner.files.summary, 'utf8');
    expect(summary.match(/^### safe-run: .*$/gm)).toEqual([
      '### safe-run: ok, exit 0',
      '### safe-run: not ok, exit 2',
    ]);
    const upload = outcomes.at(-1)!;
    const junit = await junitFiles(upload.kind === 'upload' ? upload.files : []);
    expect(junit).toHaveLength(2);
    expect(junit.filter((xml) => xml.includes('<failure'))).toHaveLength(1);
  }, 300_000);

  it("annotates gcc's errors of a build step, skips the test step and still uploads", async () => {
    const { outcomes } = await githubJob('build-fails', [
      'src/greet.c',
      'return snprintf(',
      'return snprintf(out)(',
    ]);
    const build = runOf(outcomes, 'Build');
    expect(build.code).toBe(2);
    // gcc quotes the name with ' or with ‘ ’, by the locale.
    expect(build.view.annotations).toContainEqual({
      level: 'error',
      props: { file: 'src/greet.c', line: '5', col: '10', title: 'stage 1 "make"' },
      message: expect.stringMatching(/^too few arguments to function .snprintf.$/),
    });
    expect(outcomes.find((o) => o.name === 'Test')?.kind).toBe('skipped');
    const upload = outcomes.at(-1)!;
    expect(upload.kind).toBe('upload');
    expect(await junitFiles(upload.kind === 'upload' ? upload.files : [])).toHaveLength(1);
  }, 300_000);
});

interface GitlabJob {
  image: string;
  before_script?: string[];
  script: string[];
  artifacts: { when: string; paths?: string[]; reports: { junit: string } };
}

// GitLab's shell executor joins before_script and script into one bash script that stops at the first
// line that fails (set -eo pipefail), with the pipeline's variables and its own CI_* ones set.
function runGitlabJob(dir: string, variables: Record<string, string>, job: GitlabJob, name: string) {
  const script = ['set -eo pipefail', ...(job.before_script ?? []), ...job.script].join('\n');
  const prefix = path.join(dir, 'npm-global');
  const home = path.join(dir, 'home');
  fs.mkdirSync(home, { recursive: true });
  const env: Record<string, string> = {
    PATH: `${path.join(prefix, 'bin')}:${process.env.PATH}`,
    HOME: home,
    CI: 'true',
    GITLAB_CI: 'true',
    CI_PROJECT_DIR: dir,
    CI_JOB_NAME: name,
    CI_JOB_ID: '7001',
    CI_PIPELINE_ID: '501',
    CI_COMMIT_SHA: '0123456789abcdef0123456789abcdef01234567',
    // The image's global npm prefix (root in node:20), here one of the job's own.
    npm_config_prefix: prefix,
    npm_config_registry: registry.url,
    npm_config_cache: path.join(root, 'npm-cache'),
    npm_config_update_notifier: 'false',
    ...variables,
  };
  return new Promise<{ code: number | null; log: string }>((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-c', script], {
      cwd: dir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const log: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => log.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => log.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, log: Buffer.concat(log).toString('utf8') }));
  });
}

describe('the .gitlab-ci.yml of docs/ci.md', () => {
  it('runs each script line under safe-run, stops at the one that fails, and leaves valid JUnit reports', async () => {
    const config = parse(documented('gitlab-ci')) as Record<string, unknown> & {
      variables: Record<string, string>;
    };
    const job = config['build-and-test'] as GitlabJob;
    expect(job.image).toBe('node:20');
    const dir = projectWith('gitlab', ['src/greet.c', '"hello, %s"', '"hello %s"']);
    const { code, log } = await runGitlabJob(dir, config.variables, job, 'build-and-test');
    expect(code).toBe(2);
    expect(log).toContain('tests/test_greet.c:20: error: expected "hello, world", got "hello world"');
    // Sections GitLab folds, and no annotations, which GitLab would print as they are.
    expect(log).toMatch(/\x1b\[0Ksection_start:\d+:safe_run_stage_1\[collapsed=true\]\r\x1b\[0K/);
    expect(log).not.toMatch(/^::error/m);
    expect(job.artifacts.when).toBe('always');
    expect(fs.existsSync(path.join(dir, 'test.log'))).toBe(true);
    expect(job.artifacts.reports.junit).toBe('safe-run-junit/*.xml');
    const reports = fs.readdirSync(path.join(dir, 'safe-run-junit')).map((name) => `safe-run-junit/${name}`);
    expect(reports.sort()).toEqual([
      'safe-run-junit/safe-run-build-and-test-2.xml',
      'safe-run-junit/safe-run-build-and-test.xml',
    ]);
    const xml = await junitFiles(reports.map((name) => path.join(dir, name)));
    expect(xml.filter((text) => text.includes('<failure'))).toHaveLength(1);
  }, 300_000);
});
