import { explainExit } from '../../contracts/explain-exit.js';
import type { RunFacts } from '../../facts/run-facts.js';
import { monotonicMs } from '../../monotonic-ms.js';
import { stopReason, targetText } from '../../outcome-text/render.js';
import { signalNumber } from '../../policy/signals.js';
import { classifyEnding } from '../../policy/stage-status.js';
import { decideVerdict, successes } from '../../policy/verdict.js';
import { quoteWord } from '../../quote-word.js';
import type {
  Interruption,
  Plan,
  Report,
  StageResult,
  StopFacts,
  StreamReport,
  StreamTarget,
} from '../../types.js';
import type { StageRun } from '../stage-run.js';
import { nextStep } from './next-step.js';

const NOT_CAPTURED: StreamReport = {
  bytes: null,
  truncated: false,
  omittedBytes: 0,
  text: null,
  binary: false,
  logFile: null,
};

// Turns the engine's records of a finished run into the report: one status per stage, which stages
// count as successes, the verdict, and what to do next.
interface RunEnding {
  startedAt: Date;
  t0: number;
  // The reader of safe-run's stdout went away: the last stage's SIGPIPE was earned.
  stdoutReaderGone: boolean;
  // The signal that stopped safe-run itself, if any.
  interrupted: Interruption | null;
  // A time limit that fired (its cause), if any.
  timeLimit: StopFacts | null;
  leftovers: Report['leftovers'];
  warnings: string[];
  facts: RunFacts | null;
  // The last stage's stdout was streamed whole, so its cut in the report lost nothing.
  streamedStdout: boolean;
}

export function buildReport(plan: Plan, runs: readonly StageRun[], ending: RunEnding): Report {
  const { startedAt, t0, stdoutReaderGone, interrupted, leftovers, warnings, facts, streamedStdout } = ending;
  // A -c stage whose redirection failed or whose program is missing fails alone, as in bash.
  const anyNotStarted = runs.some((run) => run.preflightError !== null || run.spawnError?.during === 'start');
  const stages = runs.map((run) => stageResult(run, anyNotStarted));
  const interruptedBy = interrupted && { ...interrupted, number: signalNumber(interrupted.signal) };
  const input = {
    policy: plan.settings.policy,
    sigpipe: plan.settings.sigpipe,
    stdoutReaderGone,
    interruptedBy,
    timeLimit: ending.timeLimit && stopReason(ending.timeLimit.cause, ending.timeLimit.fifo),
  };
  const ok = successes(stages, input);
  for (const stage of stages) stage.succeeded = ok[stage.index - 1]!;
  const verdict = decideVerdict(stages, input);
  const report: Omit<Report, 'next' | 'output' | 'checks'> = {
    schemaVersion: 1,
    ok: verdict.ok,
    exitCode: verdict.exitCode,
    policy: plan.settings.policy,
    verdict,
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(monotonicMs() - t0),
    stages,
    settings: plan.settings,
    leftovers,
    facts: facts?.report() ?? [],
    warnings: [...runs.flatMap((run) => run.warnings), ...warnings],
  };
  const step = {
    index: 1,
    text: plan.fallback ? fallbackText(plan.stages[0]?.argv ?? []) : stepText(plan),
    connector: null,
    ran: true,
    exitCode: verdict.exitCode,
    cwd: runs[0]?.cwd ?? process.cwd(),
    stages: stages.map((stage) => stage.index),
  };
  for (const stage of stages) stage.step = 1;
  return {
    ...report,
    next: nextStep(report, streamedStdout, undefined, ending.interrupted?.by !== undefined),
    output: null,
    checks: [],
    steps: [step],
    fallback: plan.fallback ?? null,
  };
}

// The step's text for a run that is one pipeline: the command line, or the spec's stages by name.
function stepText(plan: Plan): string {
  if (plan.source === 'argv') return plan.stages[0]?.argv.map(quoteWord).join(' ') ?? '';
  return plan.stages.map((stage) => stage.argv.map(quoteWord).join(' ')).join(' | ');
}

// A stream a redirection sent elsewhere: where, as data and in words.
function withTarget(stream: StreamReport, target: StreamTarget | null | undefined): StreamReport {
  return target ? { ...stream, to: targetText(target), target } : stream;
}

// One stage's outcome; `anyNotStarted`: some stage could not start, so those that never ran were skipped.
function stageResult(run: StageRun, anyNotStarted: boolean): StageResult {
  const notStarted = run.preflightError ?? run.spawnError;
  const status = notStarted
    ? 'not-started'
    : run.exit === null
      ? anyNotStarted
        ? 'skipped'
        : (run.stoppedAs ?? 'cancelled')
      : classifyEnding(
          { exitCode: run.exit.code, signal: run.exit.signal, stoppedAs: run.stoppedAs },
          run.spec.okCodes,
        );
  return {
    index: run.index,
    name: run.spec.name,
    argv: run.spec.argv,
    resolvedPath: run.resolvedPath,
    status,
    succeeded: false,
    exitCode: status === 'not-started' || status === 'skipped' ? null : (run.exit?.code ?? null),
    signal: run.exit?.signal ?? null,
    pid: run.pid,
    startedAt: run.startedAt?.toISOString() ?? null,
    durationMs: run.endNs !== null && run.startNs !== null ? Math.round(run.endNs - run.startNs) : null,
    optional: run.spec.optional,
    stdout: withTarget(run.stdoutSinks?.finish() ?? NOT_CAPTURED, run.redirectedTo[1]),
    stderr: withTarget(run.stderrSinks?.finish() ?? NOT_CAPTURED, run.redirectedTo[2]),
    stop: run.stopDetail,
    error: notStarted,
    hint:
      run.preflightError || run.spawnError?.during === 'command'
        ? 'an environment problem: running the same command again will not help until the machine changes'
        : run.spawnError?.during === 'redirect'
          ? 'a redirection failed, so the program was not started (as in bash)'
          : run.spawnError
            ? 'the program was found but the kernel refused to start it; see error.message'
            : null,
    meaning: meaningOf(run.spec.argv, status, run.exit?.code ?? null),
  };
}

// Only a code the program chose to exit with is explained: a stage safe-run stopped, or one killed
// by a signal, has no exit code of its own making.
function meaningOf(
  argv: readonly string[],
  status: StageResult['status'],
  code: number | null,
): string | null {
  if (code === null || (status !== 'ok' && status !== 'failed')) return null;
  const explained = explainExit(argv, code);
  return explained ? `${explained.program} exit ${code}: ${explained.meaning}` : null;
}

// A --fallback bash stage is `bash [flags] -c TEXT [$0 ARGS...]`: its text follows -c, and a script's
// arguments may come after it (shell/fallback-plan.ts builds that argv).
function fallbackText(argv: readonly string[]): string {
  return argv[argv.indexOf('-c') + 1] ?? '';
}
