import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type GenLine, renderLine, runBash, runSafeRun } from '../helpers/shell-oracle.js';
import { testSize } from '../helpers/sizes.js';

// `export` and NAME=value as steps of their own, every form of export's arguments, run by bash -o
// pipefail and by safe-run -c: the same exit code, stdout and steps, never an internal error. `export A B=1` once crashed safe-run: the value of B was looked up
// by A's position.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'export-forms-'));
const work = path.join(root, 'work');
fs.mkdirSync(path.join(work, 'd'), { recursive: true });
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const env = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: root,
  LANG: process.env.LANG ?? 'C.UTF-8',
  PWD: work,
  NAMES: 'A=1 B',
};

type Connector = GenLine['connectors'][number];

// Steps joined by connectors, then two steps that show the variables, exported and in the shell.
function shown(steps: string[], connectors: Connector[]): GenLine {
  const all = [...steps, 'printenv A B C', 'echo "[$A|$B|$C]"'];
  return { steps: all.map((text) => ({ text })), connectors: [...connectors, ';', ';'] };
}

const ACCEPTED: Array<[string, GenLine]> = [
  ['a name, then NAME=value', shown(['export A B=1', 'echo "$B"'], [';'])],
  ['a name with a value', shown(['A=3', 'export A B=1'], [';'])],
  ['NAME=value, then a name', shown(['export A=1 B'], [])],
  ['names around NAME=value', shown(['export A B=1 C'], [])],
  ['an unset name exported, then assigned', shown(['export A B=1 C', 'C=5'], [';'])],
  ['in a chain with &&', shown(['export A', 'A=2', 'printenv A'], ['&&', '&&'])],
  ['after ||', shown(['false', 'export A=2'], ['||'])],
  ['quoted NAME=value', shown([`export "A"=1 'B=2'`], [])],
  ['arguments from an expansion', shown(['export $NAMES C="x  y"'], [])],
  ['values expanded before any is set', shown(['export A=1 B=$A'], [])],
  ['an empty value', shown(['export A= B', 'printenv A | od -c'], [';'])],
  ['in a pipeline, in a subshell', shown(['export A=1 | cat'], [])],
  ["in a pipeline, bash's own error", shown(['export 1A B=2 | cat', 'echo $?'], [';'])],
];

describe('export as a step, against bash', () => {
  it.each(ACCEPTED)('%s', async (_what, line) => {
    const text = renderLine(line);
    const bash = await runBash(line, work, env);
    const { report: _report, stderr, ...ours } = await runSafeRun(text, work, env);
    expect({ text, ...ours }, stderr).toEqual({ text, ...bash });
  });
});

// Forms an earlier safe-run refused (it ran export itself, outside bash): the interpreter runs each
// as bash does.
const ONCE_REFUSED: Array<[string, GenLine]> = [
  ['a stray option after a name', shown(['echo first', 'export A -n'], [';'])],
  ['a name that is no identifier', shown(['echo first', 'export 1A B=2'], [';'])],
  ['export -n', shown(['export A=1', 'export -n A'], [';'])],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
  ['+= on PATH', shown(['export PATH+=:/x', 'echo "${PATH##*:}"'], [';'])],
  ['+= quoted', shown(['export "A+=x"'], [])],
  ['IFS', shown(['export IFS=:', 'printenv IFS'], [';'])],
  ['PWD', shown(['export PWD', 'printenv PWD'], [';'])],
  ['names from an expansion', shown(['X="1A B"', 'export $X'], [';'])],
  ['a variable bash sets itself', shown(['export HOSTNAME', 'printenv HOSTNAME | wc -l'], [';'])],
  ['export itself from an expansion', shown(['E=export', '$E A=1'], [';'])],
];

describe('export forms once refused, against bash', () => {
  it.each(ONCE_REFUSED)('%s', async (_what, line) => {
    const text = renderLine(line);
    const bash = await runBash(line, work, env);
    const { report: _report, stderr, ...ours } = await runSafeRun(text, work, env);
    expect({ text, ...ours }, stderr).toEqual({ text, ...bash });
  });
});

// Lines of export, NAME=value and cd steps in any order, with odd arguments.
const stepText = fc
  .tuple(
    fc.constantFrom('export', 'cd', 'A=1', 'B=$A', 'C="x y"', 'true', 'false', 'printenv A'),
    fc.array(
      fc.constantFrom(
        'A',
        'B=2',
        'C=$A',
        '"A=3"',
        '$NAMES',
        '-n',
        '1A',
        '-',
        '..',
        'd',
        '~',
        '""',
        '_',
        'A+=1',
      ),
      { maxLength: 3 },
    ),
  )
  .map(([head, args]) => [head, ...args].join(' '));
const lineOf = fc
  .tuple(
    fc.array(stepText, { minLength: 1, maxLength: 3 }),
    fc.array(fc.constantFrom<Connector>('&&', '||', ';'), { minLength: 2, maxLength: 2 }),
  )
  .map(([steps, joins]) => shown(steps, joins.slice(0, steps.length - 1)));

describe('random lines of export, NAME=value and cd', () => {
  it('run as bash runs them, or are refused in one line', async () => {
    const lines = fc.sample(lineOf, { numRuns: testSize(15, 40, 'SHELL_EXPORT_RUNS'), seed: 20261203 });
    let compared = 0;
    for (const line of lines) {
      const text = renderLine(line);
      const bash = await runBash(line, work, env);
      // A refusal leaves no report: the oracle says so with safe-run's stderr.
      const ours = await runSafeRun(text, work, env).catch((error: Error) => error);
      if (ours instanceof Error) {
        expect(ours.message, text).toMatch(/^no report \(exit 125\): /);
        const said = ours.message.replace(/^no report \(exit 125\): /, '').trimEnd();
        expect(said.split('\n').at(-1), text).toMatch(/^safe-run: -c: .* at column \d+ /);
        expect(ours.message, text).not.toMatch(/internal error/);
        continue;
      }
      compared += 1;
      const { report: _report, stderr, ...outcome } = ours;
      expect({ text, ...outcome }, stderr).toEqual({ text, ...bash });
    }
    expect(compared).toBeGreaterThan(10);
  }, 120_000);
});
