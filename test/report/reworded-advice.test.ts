import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseAdvice, nextStep } from '../../src/engine/report/next-step.js';
import { STOP_CAUSE_KINDS } from '../../src/model/stop-cause.js';
import { STREAM_TARGET_KINDS } from '../../src/model/stream-target.js';
import { stopReason } from '../../src/outcome-text/render.js';
import { WORDINGS, type Wordings } from '../../src/outcome-text/wordings.js';
import type { AdviceKind, Report } from '../../src/types.js';
import { FIXTURES, ROOT, runJson, validate } from '../helpers/index.js';

// The advice in `next` is chosen from facts (stop causes, statuses, codes), never from the words of
// a reason: here real runs are reworded through another table of wordings, every sentence of it
// different, and the advice chosen must not move.

const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs/schema/report.schema.json'), 'utf8'));

// The same table with every wording replaced by its own name: «stop.prompt», «advice.time-limit».
function renamed<T>(table: T, at: string): T {
  if (typeof table === 'string') return `«${at}»` as T;
  if (typeof table === 'function') return (() => `«${at}»`) as T;
  const entries = Object.entries(table as object).map(([key, value]) => [
    key,
    renamed(value, `${at}.${key}`),
  ]);
  return Object.fromEntries(entries) as T;
}
const OTHER: Wordings = { ...renamed(WORDINGS, 'words'), target: WORDINGS.target };

// The report as it would be with the other wordings: every stop's reason and the verdict reworded.
function reworded(report: Report): Report {
  const stages = report.stages.map((stage) =>
    stage.stop
      ? { ...stage, stop: { ...stage.stop, reason: stopReason(stage.stop.cause, stage.stop.fifo, OTHER) } }
      : stage,
  );
  return { ...report, stages, verdict: { ...report.verdict, reason: OTHER.verdict.byPolicy('', '') } };
}

const ASK = path.join(FIXTURES, 'agent', 'ask');
const SEED = path.join(FIXTURES, 'hang', 'socket-seed.mjs');
const FULL_SCREEN = 'printf "\\033[?1049h# Please enter the commit message\\n~\\n"; exec sleep 30';

const RUNS: { what: string; args: string[]; cause: string | null; advice: AdviceKind }[] = [
  {
    what: 'a question',
    args: ['--prompt-wait', '300ms', '--stdin', 'null', '--', ASK],
    cause: 'prompt',
    advice: 'prompt',
  },
  {
    what: 'an editor',
    args: ['--prompt-wait', '300ms', '--', 'sh', '-c', FULL_SCREEN],
    cause: 'full-screen',
    advice: 'full-screen',
  },
  {
    what: 'a deadlock',
    args: ['--on-deadlock', 'stop', '--timeout', '10m', '--', 'node', SEED],
    cause: 'deadlock',
    advice: 'deadlock',
  },
  {
    what: 'the pipeline timeout',
    args: ['--timeout', '300ms', '--', 'sleep', '30'],
    cause: 'pipeline-timeout',
    advice: 'time-limit',
  },
  {
    what: 'the idle timeout',
    args: ['--idle-timeout', '300ms', '--', 'sleep', '30'],
    cause: 'idle-timeout',
    advice: 'time-limit',
  },
  {
    what: 'an output cap',
    args: ['--max-stdout', '1KiB', '--on-limit', 'kill', '--', 'yes'],
    cause: 'output-limit',
    advice: 'output-cap',
  },
  {
    what: 'grep finding nothing',
    args: ['--', 'grep', 'x', '/dev/null'],
    cause: null,
    advice: 'accepted-code',
  },
  { what: 'a missing program', args: ['--', 'no-such-program-xyz'], cause: null, advice: 'cannot-start' },
];

describe('the advice of a real run, reworded', () => {
  it.each(RUNS)(
    'is the same for $what',
    async ({ args, cause, advice }) => {
      const { report } = await runJson(args, { deadlineMs: 120_000 });
      expect(validate(report, schema)).toEqual([]);
      const blamed = report.stages[(report.verdict.blamedStage ?? 1) - 1]!;
      expect(blamed.stop?.cause.kind ?? null).toBe(cause);
      // The CLI's words are the default table's rendering of the choice.
      expect(nextStep(report)).toBe(report.next);
      const other = reworded(report);
      if (blamed.stop) expect(other.stages[blamed.index - 1]!.stop!.reason).toBe(`«words.stop.${cause}»`);
      const chosen = chooseAdvice(report);
      const rechosen = chooseAdvice(other);
      expect(chosen?.kind).toBe(advice);
      expect(rechosen?.kind).toBe(chosen?.kind);
      expect(rechosen && 'stage' in rechosen ? rechosen.stage : null).toEqual(
        chosen && 'stage' in chosen ? chosen.stage : null,
      );
      expect(nextStep(other, false, OTHER)).toBe(`«words.advice.${advice}»`);
    },
    150_000,
  );
});

describe('the closed lists of facts', () => {
  it('are the ones the JSON Schema publishes', () => {
    const defs = schema.$defs;
    const causes = defs.stopCause.oneOf.flatMap(
      (form: { properties: { kind: { const?: string; enum?: string[] } } }) =>
        form.properties.kind.enum ?? [form.properties.kind.const],
    );
    expect(causes.sort()).toEqual([...STOP_CAUSE_KINDS].sort());
    const targets = defs.stream.properties.target.oneOf.flatMap(
      (form: { properties: { kind: { const?: string; enum?: string[] } } }) =>
        form.properties.kind.enum ?? [form.properties.kind.const],
    );
    expect(targets.sort()).toEqual([...STREAM_TARGET_KINDS].sort());
    expect(Object.keys(WORDINGS.stop).sort()).toEqual([...STOP_CAUSE_KINDS].sort());
  });
});
