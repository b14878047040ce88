import type { RunFacts } from '../facts/run-facts.js';
import type { Interruption, Plan, Report, StopCause, StopFacts } from '../types.js';
import { buildReport } from './report/build-report.js';
import { maskReport } from './report/mask-report.js';
import type { ResolvedPlan } from './resolve-plan.js';
import type { StageRun } from './stage-run.js';
import type { StreamWiring } from './stage-streams.js';
import type { Supervisor } from './supervisor.js';

export interface RunClock {
  startedAt: Date;
  t0: number;
  // What the pipeline's time limit counts from (RunIO.limitSince; the run's start without one).
  limitT0: number;
}

// The report of a run that started its stages: leftovers dealt with, every stream finished and its
// log closed (whose problems become warnings, so before warnings are read), then built and masked.
export async function finishRun(
  resolved: ResolvedPlan,
  runs: readonly StageRun[],
  clock: RunClock,
  parts: { supervisor: Supervisor; streams: StreamWiring; facts: RunFacts | null; streamed: boolean },
): Promise<Report> {
  const { supervisor, streams, facts } = parts;
  const leftovers = await supervisor.finish();
  for (const run of runs) {
    run.stdoutSinks?.end();
    run.stderrSinks?.end();
  }
  await Promise.all(runs.flatMap((run) => [run.stdoutSinks?.settled(), run.stderrSinks?.settled()]));
  for (const run of runs) {
    run.stdoutSinks?.finish();
    run.stderrSinks?.finish();
  }
  const plan: Plan = resolved.plan;
  const built = buildReport(plan, runs, {
    ...clock,
    stdoutReaderGone: streams.stdoutReaderGone(),
    interrupted: supervisor.interruptedBy(),
    timeLimit: timeLimitOf(supervisor.timeLimitFired()),
    leftovers,
    warnings: [...(facts?.warnings ?? []), ...supervisor.warnings],
    facts,
    streamedStdout: parts.streamed && plan.settings.liveStdout === 'full' && !streams.stdoutFailed(),
  });
  return maskReport(built, resolved.secrets);
}

function timeLimitOf(cause: StopCause | null): StopFacts | null {
  return cause && { cause };
}

// The report of a run that started nothing: a stage cannot start, or safe-run was stopped (or its
// time ran out) while the stdin FIFO still had no writer.
export function reportNothingStarted(
  resolved: ResolvedPlan,
  runs: readonly StageRun[],
  clock: RunClock,
  ending: { interrupted: Interruption | null; timeLimit: StopFacts | null; facts: RunFacts | null },
): Report {
  const built = buildReport(resolved.plan, runs, {
    ...clock,
    stdoutReaderGone: false,
    interrupted: ending.interrupted,
    timeLimit: ending.timeLimit,
    leftovers: [],
    warnings: ending.facts?.warnings ?? [],
    facts: ending.facts,
    streamedStdout: false,
  });
  return maskReport(built, resolved.secrets);
}
