import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type GenLine, renderLine, runBash, runSafeRun } from '../helpers/shell-oracle.js';

// Lines on which a generator of command lines (thousands of lines run by bash -o pipefail and by
// safe-run -c) once found safe-run different from bash. Each must now give bash's exit code, stdout,
// files, steps run and per-stage codes.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'found-cases-'));
const home = path.join(root, 'home');
const work = path.join(root, 'work');

function fixture(): void {
  for (const dir of [work, home]) fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(work, 'o'), { recursive: true });
  fs.mkdirSync(path.join(work, 'sub dir'));
  fs.mkdirSync(home);
  fs.symlinkSync('sub dir', path.join(work, 'link'));
  fs.writeFileSync(path.join(work, 'c.txt'), 'c\n');
  // A link to a directory elsewhere: `..` under it is the target's parent for the kernel.
  const elsewhere = path.join(root, 'elsewhere');
  fs.rmSync(elsewhere, { recursive: true, force: true });
  fs.mkdirSync(path.join(elsewhere, 'd'), { recursive: true });
  fs.writeFileSync(path.join(elsewhere, 'prog.sh'), '#!/bin/sh\necho "prog in $(basename "$(pwd -P)")"\n', {
    mode: 0o755,
  });
  fs.symlinkSync('../elsewhere/d', path.join(work, 'far'));
}

const env = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: home,
  LANG: process.env.LANG ?? 'C.UTF-8',
  V: 'a  *.txt [x] b',
  PWD: work,
};

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

// [what went wrong, the line as steps and connectors]
const CASES: Array<[string, GenLine]> = [
  [
    "export's NAME=value in a pipeline is one word, neither split nor globbed",
    { steps: [{ text: 'export Y=$V | cat' }, { text: 'echo "[$Y]"' }], connectors: [';'] },
  ],
  [
    'a glob target sees the file an earlier redirection of the same command created',
    { steps: [{ text: 'echo v &>> o/all.txt > o/*.txt' }, { text: 'cat o/all.txt' }], connectors: [';'] },
  ],
  [
    'a glob target that matches two files by then is an ambiguous redirect, said where stderr goes',
    {
      steps: [{ text: 'echo a > o/b.txt' }, { text: 'echo b > o/c.txt 2>&1 > o/*.txt' }],
      connectors: [';'],
    },
  ],
  [
    'a writer killed by SIGPIPE makes the step fail for && (pipefail: 141)',
    { steps: [{ text: 'yes | head -n1' }, { text: 'echo after' }], connectors: ['&&'] },
  ],
  [
    'and runs the || branch, with 141 as $?',
    {
      steps: [{ text: 'yes | head -n1' }, { text: 'echo "failed $?"' }, { text: 'echo $?' }],
      connectors: ['||', ';'],
    },
  ],
  [
    'a redirection target with .. after a symbolic link is opened as the kernel resolves it',
    {
      steps: [{ text: 'cd far' }, { text: 'echo x > ../f' }, { text: 'echo y > far/../g' }],
      connectors: ['&&', ';'],
    },
  ],
  [
    'a program named with .. after a symbolic link is the one the kernel finds',
    { steps: [{ text: 'cd far' }, { text: '../prog.sh' }], connectors: ['&&'] },
  ],
  [
    'a redirection target with a trailing slash must be a directory',
    { steps: [{ text: 'echo y > o/*/' }, { text: 'echo $?' }], connectors: [';'] },
  ],
  [
    '$0 is bash, as in bash -c',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
    { steps: [{ text: 'echo $0 "${0}" > o/zero' }, { text: 'cat o/zero' }], connectors: [';'] },
  ],
  [
    'a here-document that runs to the end of the text ends with a newline',
    { steps: [{ text: "cat <<'EOF' | od -c", body: 'no newline at end\nEOF_NOT' }], connectors: [] },
  ],
];

describe('lines once found different from bash', () => {
  it.each(CASES)('%s', async (_what, line) => {
    const text = renderLine(line);
    fixture();
    const bash = await runBash(line, work, env, root);
    fixture();
    const { report: _report, stderr, ...ours } = await runSafeRun(text, work, env, [], root);
    expect({ text, ...ours }, stderr).toEqual({ text, ...bash });
  });
});

describe('a writer killed by SIGPIPE under the default --sigpipe tolerate', () => {
  it("runs what bash runs (pipefail's 141 decides && and $?), while the step and the run stay ok", async () => {
    const line: GenLine = {
      steps: [{ text: 'yes | head -n1' }, { text: 'echo after' }, { text: 'echo "status $?"' }],
      connectors: ['&&', '||'],
    };
    const text = renderLine(line);
    fixture();
    const bash = await runBash(line, work, env, root);
    fixture();
    const ours = await runSafeRun(text, work, env, ['--sigpipe', 'tolerate'], root);
    expect({ stdout: ours.stdout, steps: ours.steps, files: ours.files }, ours.stderr).toEqual({
      stdout: bash.stdout,
      steps: bash.steps,
      files: bash.files,
    });
    expect(bash.stdout).toBe('y\nstatus 141\n');
    // A step's exitCode is bash's $? (141 decides the ||); the stage says the SIGPIPE was tolerated.
    expect(ours.report.steps!.map((step) => [step.ran, step.exitCode])).toEqual([
      [true, 141],
      [false, null],
      [true, 0],
    ]);
    expect(ours.report.stages[0]!.status).toBe('sigpipe');
    expect(ours.exit).toBe(0);
  });
});
