import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../helpers/cli.js';
import { readAction, runCompositeAction } from '../helpers/composite-action.js';
import { newRunnerJob, type RunnerJob, runStep } from '../helpers/github-runner.js';
import { type LocalRegistry, serveThisCheckout } from '../helpers/local-registry.js';

// The repository's GitHub Action (action.yml): its steps run as the runner runs them, in a simulated
// job (RUNNER_TEMP, GITHUB_PATH, GITHUB_OUTPUT), installing safe-run from a stand-in for the npm
// registry that serves this checkout's `npm pack` tarball, or a binary from a file:// URL.

const ACTION = path.join(ROOT, 'action.yml');
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-action-'));
let registry: LocalRegistry;

beforeAll(async () => {
  registry = await serveThisCheckout(root);
}, 120_000);
afterAll(async () => {
  await registry?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

let jobs = 0;
function job(): RunnerJob {
  jobs += 1;
  const made = newRunnerJob(path.join(root, `job-${jobs}`));
  Object.assign(made.env, {
    npm_config_registry: registry.url,
    npm_config_cache: path.join(made.root, 'npm-cache'),
    npm_config_update_notifier: 'false',
  });
  return made;
}

// A stand-in for the release binary: one file that runs this checkout's safe-run.
function binaryAt(dir: string): { url: string; sha256: string } {
  const file = path.join(dir, 'safe-run');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
  const sha256 = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  fs.writeFileSync(`${file}.sha256`, `${sha256}  safe-run\n`);
  return { url: `file://${file}`, sha256 };
}

describe('the GitHub Action', () => {
  it("installs the package's own version by default", () => {
    expect(readAction(ACTION).inputs.version?.default).toBe(VERSION);
  });

  it('installs safe-run@VERSION with npm and puts it on PATH for the next steps', async () => {
    const runner = job();
    const result = await runCompositeAction(runner, ACTION);
    expect(result.code).toBe(0);
    const dir = path.join(runner.env.RUNNER_TEMP!, `safe-run-${VERSION}`, 'bin');
    expect(result.outputs).toEqual({ version: VERSION, path: dir });
    expect(result.steps[1]!.log).toContain(`safe-run ${VERSION} at ${dir}/safe-run`);
    expect(runner.env.PATH!.split(':')[0]).toBe(dir);
    // A later step with safe-run as its shell finds it and runs its script under it.
    const step = await runStep(runner, 'echo one\nfalse\necho never\n', {
      shell: 'safe-run -e --no-facts --script {0}',
    });
    expect(step.code).toBe(1);
    expect(step.log).toContain('one\n');
    expect(step.log).not.toContain('never\n');
  }, 180_000);

  it('refuses a version that is not a release before npm runs', async () => {
    const runner = job();
    const result = await runCompositeAction(runner, ACTION, { version: 'latest; rm -rf ~' });
    expect(result.code).toBe(1);
    expect(result.steps[0]!.view.annotations).toEqual([
      {
        level: 'error',
        props: { title: 'safe-run action' },
        message: "version must be a release such as 1.2.3, got 'latest; rm -rf ~'",
      },
    ]);
    expect(fs.readdirSync(runner.env.RUNNER_TEMP!).filter((name) => name.startsWith('safe-run'))).toEqual([]);
  });

  it('downloads a binary, checks it against its .sha256, and puts it on PATH', async () => {
    const runner = job();
    const { url } = binaryAt(path.join(runner.root, 'release'));
    const result = await runCompositeAction(runner, ACTION, { 'binary-url': url });
    expect(result.code).toBe(0);
    const dir = path.join(runner.env.RUNNER_TEMP!, 'safe-run-binary', 'bin');
    expect(result.outputs).toEqual({ version: VERSION, path: dir });
    expect(fs.readdirSync(dir)).toEqual(['safe-run']);
  });

  it('refuses a binary whose checksum is not the one given, and leaves nothing on PATH', async () => {
    const runner = job();
    const { url, sha256 } = binaryAt(path.join(runner.root, 'release'));
    const wrong = `${sha256.slice(0, -1)}${sha256.endsWith('0') ? '1' : '0'}`;
    const before = runner.env.PATH;
    const result = await runCompositeAction(runner, ACTION, { 'binary-url': url, sha256: wrong });
    expect(result.code).toBe(1);
    expect(result.steps).toHaveLength(1);
    const [annotation] = result.steps[0]!.view.annotations;
    expect(annotation?.message).toBe(`checksum mismatch for ${url}: expected ${wrong}, got ${sha256}`);
    expect(fs.readdirSync(path.join(runner.env.RUNNER_TEMP!, 'safe-run-binary', 'bin'))).toEqual([]);
    expect(runner.env.PATH).toBe(before);
  });

  it('refuses a binary whose .sha256 file cannot be fetched, and sha256 without a binary', async () => {
    const runner = job();
    const { url } = binaryAt(path.join(runner.root, 'release'));
    fs.rmSync(`${url.slice('file://'.length)}.sha256`);
    const missing = await runCompositeAction(runner, ACTION, { 'binary-url': url });
    expect(missing.code).toBe(1);
    expect(missing.steps[0]!.view.annotations[0]?.message).toBe(
      `could not download ${url}.sha256 (or give the sha256 input)`,
    );
    const alone = await runCompositeAction(job(), ACTION, { sha256: 'ab'.repeat(32) });
    expect(alone.code).toBe(1);
    expect(alone.steps[0]!.view.annotations[0]?.message).toBe(
      'sha256 is the checksum of a binary: give binary-url with it',
    );
  });
});
