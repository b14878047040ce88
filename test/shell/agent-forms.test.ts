import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type GenLine, renderLine, runBash, runSafeRun } from '../helpers/shell-oracle.js';

// The twelve forms agents write most (issue 10), each run by bash -o pipefail and by safe-run -c in
// identical directories: the same exit code, stdout, files and per-stage codes, one row per stage.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-forms-'));
const home = path.join(root, 'home');
const work = path.join(root, 'work');

function fixture(): void {
  for (const dir of [work, home]) fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(work, 'src', 'lib'), { recursive: true });
  fs.mkdirSync(home);
  fs.writeFileSync(path.join(home, '.profile'), 'export A=1\nexport B=2\n');
  fs.writeFileSync(path.join(home, 'notes.md'), 'n\n');
  fs.writeFileSync(path.join(work, 'src', 'a.ts'), 'const x = 1; // TODO: y\n');
  fs.writeFileSync(path.join(work, 'src', 'lib', 'b.ts'), 'export const b = 2;\n');
  fs.writeFileSync(path.join(work, 'src', 'lib', 'c.ts'), '// TODO later\n');
  fs.writeFileSync(path.join(work, 'data.csv'), 'z,1\na,2\nm,3\n');
  fs.writeFileSync(path.join(work, 'one.txt'), '1\n');
  fs.writeFileSync(path.join(work, 'two words.txt'), '2\n');
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: work,
      env: { ...env, GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' },
      stdio: 'ignore',
    });
  git('init', '-q');
  git('-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-q', '--allow-empty', '-m', 'first');
}

const env = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: home,
  LANG: process.env.LANG ?? 'C.UTF-8',
  GIT_CONFIG_NOSYSTEM: '1',
};

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const FORMS: Array<[string, GenLine['steps'][number], number]> = [
  ['cmd 2>&1 | tail -n 40', { text: "sh -c 'echo out; echo err >&2; exit 3' 2>&1 | tail -n 40" }, 2],
  ['grep -rn x src 2>/dev/null | head', { text: 'grep -rn TODO src nowhere 2>/dev/null | head' }, 2],
  ['cd src && ls | wc -l', { text: 'cd src && ls | wc -l' }, 3],
  ['make build || echo failed', { text: 'make build || echo failed' }, 2],
  ['git log -n 5 > log.txt', { text: 'git log -n 5 --format=%s > log.txt' }, 1],
  ['sort < data.csv | head', { text: 'sort < data.csv | head' }, 2],
  ['ls *.txt | wc -l', { text: 'ls *.txt | wc -l' }, 2],
  ["echo $PATH | tr : '\\n'", { text: "echo $PATH | tr : '\\n'" }, 2],
  ['ls ~ | head', { text: 'ls ~ | head' }, 2],
  ['cat "$HOME/.profile" | wc -l', { text: 'cat "$HOME/.profile" | wc -l' }, 2],
  [
    'find . -name "*.ts" | xargs grep -l TODO',
    { text: 'find . -name "*.ts" | sort | xargs grep -l TODO' },
    3,
  ],
  ["cat > f << 'EOF' ... EOF", { text: "cat > f << 'EOF'", body: 'line $one\n`two` \\three\nEOF\n' }, 1],
];

describe('the forms agents write most', () => {
  it.each(FORMS)('runs %s as bash runs it, with a row per stage', async (_name, step, stageCount) => {
    // `cd src && ...` and `make ... || ...` are two steps: split them as the text does.
    const line: GenLine = { steps: [step], connectors: [] };
    const text = renderLine(line);
    fixture();
    const bash = await runBash(line, work, { ...env, PWD: work }, root);
    fixture();
    const { report, stderr, ...ours } = await runSafeRun(text, work, { ...env, PWD: work }, [], root);
    // The instrumented bash reports the whole text as one step; safe-run splits lists into steps.
    const ourCodes = Object.values(ours.steps).flat();
    expect({ exit: ours.exit, stdout: ours.stdout, files: ours.files }, stderr).toEqual({
      exit: bash.exit,
      stdout: bash.stdout,
      files: bash.files,
    });
    expect(report.stages).toHaveLength(stageCount);
    expect(ourCodes.at(-1)).toBe(bash.steps[1]!.at(-1));
  });
});
