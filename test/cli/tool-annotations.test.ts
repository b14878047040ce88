import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, FIXTURES, ROOT } from '../helpers/cli.js';
import { newRunnerJob, type RunnerJob, runStep } from '../helpers/github-runner.js';

// A failed step's compiler, type checker, linter and test runner diagnostics become annotations on
// the files they name, as the GitHub runner reads the step's log. The real tools run where this
// machine has them (gcc, tsc from node_modules, pytest); eslint's unix format comes from a fixture.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-tools-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const SHELL = `${BIN} -e --no-facts --script {0}`;
const TSC = path.join(ROOT, 'node_modules', '.bin', 'tsc');
const has = (argv: string[]) => spawnSync(argv[0]!, argv.slice(1), { stdio: 'ignore' }).status === 0;
const HAS_GCC = has(['gcc', '--version']);
const HAS_PYTEST = has(['python3', '-m', 'pytest', '--version']);

let jobs = 0;
function jobWith(files: Record<string, string>): RunnerJob {
  jobs += 1;
  const job = newRunnerJob(path.join(root, `job-${jobs}`), [path.join(FIXTURES, 'ci')]);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(job.workspace, name)), { recursive: true });
    fs.writeFileSync(path.join(job.workspace, name), text);
  }
  return job;
}

const BAD_C = `#include <stdio.h>
int main(void) {
  int unused;
  printf("%d\\n", missing);
  return 0;
}
`;

describe('annotations from tool output in a GitHub step', () => {
  it.skipIf(!HAS_GCC)(
    "gcc's errors and warnings, with paths relative to the checkout after a cd",
    async () => {
      const job = jobWith({ 'src/bad.c': BAD_C });
      const { code, view } = await runStep(job, 'cd src\ngcc -Wall -c bad.c -o bad.o\n', { shell: SHELL });
      expect(code).toBe(1);
      const fromGcc = view.annotations.filter((a) => a.props.file !== undefined);
      expect(fromGcc).toContainEqual({
        level: 'error',
        props: { file: 'src/bad.c', line: '4', col: '18', title: 'stage 2 "gcc"' },
        message: "'missing' undeclared (first use in this function)",
      });
      expect(fromGcc).toContainEqual(
        expect.objectContaining({
          level: 'warning',
          props: expect.objectContaining({ file: 'src/bad.c', line: '3' }),
        }),
      );
      // safe-run's own annotation for the stage is still there, once.
      expect(
        view.annotations.filter((a) => a.props.title?.startsWith('safe-run: stage 2 "gcc"')),
      ).toHaveLength(1);
    },
  );

  it('tsc, whose output went through a pipe into tee', async () => {
    const job = jobWith({ 'src/a.ts': 'const x: number = "s";\nexport { x };\n' });
    const step = `"${TSC}" --noEmit --strict --skipLibCheck --lib es5 src/a.ts | tee tsc.log\n`;
    const { code, view } = await runStep(job, step, { shell: SHELL });
    expect(code).toBe(2);
    expect(view.annotations).toContainEqual({
      level: 'error',
      props: { file: 'src/a.ts', line: '1', col: '7', title: 'stage 1 "tsc": TS2322' },
      message: "Type 'string' is not assignable to type 'number'.",
    });
  });

  it.skipIf(!HAS_PYTEST)("pytest's failures, on the line that failed, with its E lines", async () => {
    const job = jobWith({
      'tests/test_a.py':
        'def helper(x):\n    assert x == 2, "x should be two"\n\ndef test_two():\n    helper(1)\n',
    });
    const step = 'python3 -m pytest -q -p no:cacheprovider tests\n';
    const { code, view } = await runStep(job, step, { shell: SHELL });
    expect(code).toBe(1);
    expect(view.annotations).toContainEqual({
      level: 'error',
      props: { file: 'tests/test_a.py', line: '2', title: 'stage 1 "python3": test_two: AssertionError' },
      message: 'AssertionError: x should be two\nassert 1 == 2',
    });
  });

  it("eslint's unix format with absolute paths, bounded, the rest counted in a notice", async () => {
    const job = jobWith({});
    const { code, log, view } = await runStep(job, 'eslint-unix 12 3\n', { shell: SHELL });
    expect(code).toBe(1);
    const errors = view.annotations.filter((a) => a.level === 'error' && a.props.file === 'src/app.js');
    expect(errors).toHaveLength(9);
    expect(errors[0]).toEqual({
      level: 'error',
      props: { file: 'src/app.js', line: '1', col: '5', title: 'stage 1 "eslint-unix": no-unused-vars' },
      message: "'v1' is defined but never used.",
    });
    expect(view.annotations.filter((a) => a.level === 'warning')).toHaveLength(3);
    const notice = view.annotations.find((a) => a.level === 'notice');
    expect(notice?.message).toMatch(/^3 more errors and 0 more warnings in its output were not annotated/);
    // The limit GitHub applies per step: 10 errors, safe-run's own included.
    expect(view.annotations.filter((a) => a.level === 'error')).toHaveLength(10);
    expect(log).toContain(`${job.workspace}/src/app.js:12:5:`);
  });

  it('none for a step that succeeded, and none under GitLab, whose log keeps the lines', async () => {
    const ok = await runStep(jobWith({}), 'eslint-unix 0 2\n', { shell: SHELL });
    expect(ok.code).toBe(0);
    expect(ok.view.annotations).toEqual([]);
    const gitlab = await runStep(jobWith({}), 'eslint-unix 2 0\n', {
      shell: SHELL,
      env: { GITHUB_ACTIONS: '', GITLAB_CI: 'true' },
    });
    expect(gitlab.code).toBe(1);
    expect(gitlab.log).not.toMatch(/^::/m);
    expect(gitlab.log).toContain("src/app.js:2:5: 'v2' is defined but never used. [Error/no-unused-vars]");
  });
});
