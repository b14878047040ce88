import { execFileSync } from 'node:child_process';
import os from 'node:os';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runJson, testSize } from '../helpers/index.js';

// Generated pipelines run by safe-run and by bash: per-stage codes must equal ${PIPESTATUS[@]}, and
// --policy pipefail --sigpipe fail must equal bash -o pipefail. Only pipelines whose outcome under
// bash is deterministic are generated: a stage that stops reading early is fed either nothing, a
// single small write made before it can exit, or more than a pipe buffer (so the writer surely
// meets the closed pipe).
type Output = 'none' | 'small' | 'large' | 'endless';
interface Kind {
  text: (n: number) => string;
  reads: 'all' | 'some' | 'none';
  // What it writes, given what it reads.
  output: (input: Output) => Output;
}

const KINDS: Kind[] = [
  { text: () => 'yes', reads: 'none', output: () => 'endless' },
  { text: () => 'seq 1 200000', reads: 'none', output: () => 'large' },
  { text: () => "printf 'a\\nb\\n'", reads: 'none', output: () => 'small' },
  { text: () => 'true', reads: 'none', output: () => 'none' },
  { text: (n) => `sh -c 'exit ${n}'`, reads: 'none', output: () => 'none' },
  { text: () => "sh -c 'kill -USR1 $$'", reads: 'none', output: () => 'none' },
  { text: () => 'cat', reads: 'all', output: (input) => input },
  { text: () => 'wc -l', reads: 'all', output: (input) => (input === 'none' ? 'small' : 'small') },
  { text: (n) => `sh -c 'cat >/dev/null; exit ${n}'`, reads: 'all', output: () => 'none' },
  { text: () => 'head -n1', reads: 'some', output: (input) => (input === 'none' ? 'none' : 'small') },
  { text: () => 'head -c 3', reads: 'some', output: (input) => (input === 'none' ? 'none' : 'small') },
];

function deterministic(kinds: Kind[]): boolean {
  let flow: Output = 'none';
  for (const [i, kind] of kinds.entries()) {
    if (i > 0) {
      if (flow === 'small' && kind.reads === 'none') return false;
      // An endless stream into something that reads all and does not stop would never end.
      if (flow === 'endless' && kind.reads === 'all' && kind.output('endless') !== 'endless') return false;
      // A `small` write into a reader that exits early is safe: head blocks until that write lands.
    }
    flow = kind.output(flow);
  }
  return flow !== 'endless';
}

const pipelineArb = fc
  .array(fc.tuple(fc.integer({ min: 0, max: KINDS.length - 1 }), fc.integer({ min: 0, max: 5 })), {
    minLength: 1,
    maxLength: 4,
  })
  .filter((stages) => deterministic(stages.map(([k]) => KINDS[k]!)))
  .map((stages) => stages.map(([k, n]) => KINDS[k]!.text(n)).join(' | '));

function bashStatuses(pipeline: string): { statuses: number[]; pipefail: number } {
  const out = execFileSync('bash', ['-c', `${pipeline} >/dev/null; echo "\${PIPESTATUS[@]}"`], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const pipefail = execFileSync('bash', ['-o', 'pipefail', '-c', `${pipeline} >/dev/null; echo $?`], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return { statuses: out.trim().split(' ').map(Number), pipefail: Number(pipefail.trim()) };
}

// One test per pipeline: each gets the suite's hang guard, so the bound grows with the work instead of
// thirty runs sharing one fixed limit that a loaded machine cannot meet.
const sampled = testSize(15, 30, 'SAFE_RUN_DIFF_RUNS');
const pipelines = [...new Set(fc.sample(pipelineArb, { numRuns: sampled, seed: 20261129 }))];

describe('safe-run against bash', () => {
  it('samples enough distinct pipelines to say something', () => {
    expect(pipelines.length).toBeGreaterThan(sampled * 0.75);
  });

  it.each(pipelines)(
    'gives every stage of `%s` the status bash gives it, and pipefail the same exit code',
    async (pipeline) => {
      const bash = bashStatuses(pipeline);
      const { report } = await runJson(['--policy', 'pipefail', '--sigpipe', 'fail', '-c', pipeline]);
      const ours = report.stages.map((stage) =>
        stage.signal === null ? stage.exitCode : 128 + os.constants.signals[stage.signal as NodeJS.Signals],
      );
      expect({ statuses: ours, exit: report.exitCode }).toEqual({
        statuses: bash.statuses,
        exit: bash.pipefail,
      });
    },
  );
});
