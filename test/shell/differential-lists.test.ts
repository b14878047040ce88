import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type GenLine, type GenStep, renderLine, runBash, runSafeRun } from '../helpers/shell-oracle.js';
import { testSize } from '../helpers/sizes.js';

// Generated command lines run by bash -o pipefail and by safe-run -c in identical directories: the
// same exit code, stdout, files, steps run or skipped, and per-stage codes equal to PIPESTATUS.

const STAGES = [
  'echo $V',
  'echo "$V"',
  "printf '%s\\n' *.txt",
  "printf '[%s]\\n' $V",
  'ls',
  'ls -a',
  'cat "a b.txt"',
  'wc -l',
  'sort',
  'cat',
  'true',
  'false',
  "sh -c 'exit 3'",
  'echo ~',
  'echo ~/x',
  'ls ~',
  'pwd',
  'echo $W',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
  'echo "${W:-unset}" ${V:-d}',
  'grep -c a',
  'echo $?',
  'tr a-z A-Z',
  'ls sub*',
  'echo .*',
  'echo s*/*',
  'echo *.{txt,log}',
  'ls -d "$HOME"/*',
  'echo "$PWD"',
  "echo 'it''s' \"a\\\"b\" c\\ d",
];
// Stages after the first read their stdin to the end, so no writer's SIGPIPE depends on timing.
const READERS = ['wc -l', 'sort', 'cat', 'grep -c a', 'tr a-z A-Z', 'sort -r', 'cat -n'];
// Files written go to o/, which no generated command lists: a listing that races a file being created
// in the same pipeline is a race in bash too. Every directory a `cd` can reach has one. A failing redirection only ends a one-stage pipeline
// (after a writer, whether that writer meets a closed pipe is a race in bash).
const OUTPUTS = [
  '> o/out1.txt',
  '>> o/out2.txt',
  '2> o/err.txt',
  '&> o/all.txt',
  '>|o/out3.txt',
  '2>>o/err.txt',
  '&>> o/all.txt',
];
const FAILING = ['> nodir/x', '2> nodir/y'];
const ANYWHERE = ['2>&1', '2>/dev/null', '>/dev/null', '1>&2'];
const INPUTS = ['< data.csv', '< "a b.txt"', '< missing.txt'];
const ALONE: GenStep[] = [
  { text: 'cd "sub dir"' },
  { text: 'cd ..' },
  { text: 'cd nonexist' },
  { text: 'cd' },
  { text: 'cd ~' },
  { text: 'cd -' },
  { text: 'export V="x  y*"' },
  { text: 'W="p *.txt  q"' },
  { text: 'W=$V' },
  { text: "cat <<'EOF'", body: 'line $HOME `x` \\\n  two\nEOF\n' },
  { text: "cat <<-'EOF' | wc -l", body: '\tone\n\t\ttwo\n\tEOF\n' },
  { text: 'cat << EOF > here.txt', body: 'plain body\nEOF\n' },
  { text: 'env | grep -E "^(PWD|OLDPWD|SHLVL|V|W)=" | sort' },
];

const firstArb = fc
  .tuple(fc.constantFrom(...STAGES), fc.array(fc.constantFrom(...ANYWHERE, ...INPUTS), { maxLength: 2 }))
  .map(([text, redirects]) => [text, ...redirects].join(' '));
const readerArb = fc
  .tuple(fc.constantFrom(...READERS), fc.array(fc.constantFrom(...ANYWHERE), { maxLength: 2 }))
  .map(([text, redirects]) => [text, ...redirects].join(' '));

const pipelineArb = fc
  .tuple(
    fc.tuple(firstArb, fc.array(readerArb, { maxLength: 2 })).map(([first, rest]) => [first, ...rest]),
    fc.option(fc.constantFrom(...OUTPUTS, ...FAILING), { nil: undefined }),
  )
  .map(([stages, chosen]): GenStep => {
    const output = stages.length > 1 && chosen && FAILING.includes(chosen) ? undefined : chosen;
    const last = stages.length - 1;
    return { text: stages.map((s, i) => (i === last && output ? `${s} ${output}` : s)).join(' | ') };
  });

const stepArb = fc.oneof(
  { weight: 3, arbitrary: pipelineArb },
  { weight: 2, arbitrary: fc.constantFrom(...ALONE) },
);

const lineArb = fc
  .array(fc.tuple(stepArb, fc.constantFrom<GenLine['connectors'][number]>('&&', '||', ';', '\n')), {
    minLength: 1,
    maxLength: 4,
  })
  .map(
    (pairs): GenLine => ({
      steps: pairs.map(([step]) => step),
      connectors: pairs.slice(0, -1).map(([step, connector]) => (step.body !== undefined ? '\n' : connector)),
    }),
  );

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shell-diff-'));
const home = path.join(root, 'home');
const work = path.join(root, 'work');

function fixture(): void {
  fs.rmSync(work, { recursive: true, force: true });
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(path.join(root, 'o'), { recursive: true, force: true });
  fs.mkdirSync(path.join(work, 'sub dir'), { recursive: true });
  fs.mkdirSync(home);
  fs.writeFileSync(path.join(home, '.profile'), 'a\nb\n');
  fs.writeFileSync(path.join(home, 'notes.txt'), 'home notes\n');
  fs.writeFileSync(path.join(work, 'a b.txt'), 'banana\napple\ncherry\n');
  fs.writeFileSync(path.join(work, 'c.txt'), 'c\n');
  fs.writeFileSync(path.join(work, '.hidden.txt'), 'h\n');
  fs.writeFileSync(path.join(work, 'd.log'), 'log a\n');
  fs.writeFileSync(path.join(work, 'data.csv'), 'z,1\na,2\nm,3\n');
  fs.writeFileSync(path.join(work, 'sub dir', 'x.txt'), 'x\n');
  // Every directory a generated `cd` reaches has its o/ (the parent of work is root).
  for (const dir of [work, path.join(work, 'sub dir'), home, root])
    fs.mkdirSync(path.join(dir, 'o'), { recursive: true });
}

const env = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: home,
  V: 'a  *.txt [x] b',
  LANG: process.env.LANG ?? 'C.UTF-8',
};

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('safe-run -c against bash -o pipefail on generated lines', () => {
  it('gives the same exit code, stdout, files, steps and per-stage codes', async () => {
    const runs = testSize(20, 45, 'SHELL_DIFF_RUNS');
    const lines = fc.sample(lineArb, {
      numRuns: runs,
      seed: Number(process.env.SHELL_DIFF_SEED ?? 20261201),
    });
    // Most generated lines are distinct, or the comparison says little.
    expect(new Set(lines.map(renderLine)).size).toBeGreaterThan(runs * 0.75);
    for (const line of lines) {
      const text = renderLine(line);
      fixture();
      const bash = await runBash(line, work, { ...env, PWD: work }, root);
      fixture();
      const ours = await runSafeRun(text, work, { ...env, PWD: work }, [], root);
      const { report: _report, stderr, ...mine } = ours;
      expect({ text, ...mine }, `${text}\n${stderr}`).toEqual({ text, ...bash });
    }
  }, 120_000);
});
