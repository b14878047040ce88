import type { Advice, FifoWait, StageResult, StopCause, StreamTarget } from '../types.js';
import { WORDINGS, type Wordings } from './wordings.js';

// Facts to sentences, through one table of wordings (wordings.ts). `words` is that table unless a
// caller (a test) hands another: the facts, and what is decided from them, stay the same.

// A stage's outcome, as much of it as the words need.
export type Outcome = Pick<
  StageResult,
  'status' | 'exitCode' | 'signal' | 'optional' | 'name' | 'index' | 'error'
> &
  Partial<Pick<StageResult, 'stop'>>;

// Why safe-run stopped a stage: the report's `stop.reason`.
export function stopReason(cause: StopCause, fifo?: FifoWait, words: Wordings = WORDINGS): string {
  const reason = (words.stop[cause.kind] as (cause: StopCause) => string)(cause);
  if (!fifo) return reason;
  return (words.fifo[fifo.kind] as (reason: string, wait: FifoWait) => string)(reason, fifo);
}

// What to do next: the report's `next`.
export function adviceText(advice: Advice, words: Wordings = WORDINGS): string {
  return (words.advice[advice.kind] as (advice: Advice) => string)(advice);
}

// How a stage ended, as a clause of the verdict: `stage 2 "grep" failed with exit 2`.
export function stageOutcome(stage: Outcome, words: Wordings = WORDINGS): string {
  const said = words.outcome;
  const who = said.who(stage);
  switch (stage.status) {
    case 'failed':
      return said.failed(who, stage.exitCode);
    case 'signaled':
    case 'sigpipe':
      return said.killed(who, stage.signal);
    case 'not-started':
      if (stage.error?.during === 'redirect' || stage.error?.during === 'command')
        return said.failedAlone(who, stage.error.message);
      return said.notStarted(who, stage.error?.code ?? 'error');
    case 'timeout':
    case 'limit':
    case 'cancelled':
      if (stage.stop) return said.stopped(who, stage.stop.reason);
      return stage.status === 'cancelled' ? said.cancelled(who) : said.stoppedAs(who, stage.status);
    default:
      return said.endedAs(who, stage.status);
  }
}

// The kernel refused a stage that preflight accepted: which stages had started (and were then
// stopped by safe-run), or that none had.
export function startRefusedReason(
  blamed: Outcome,
  stages: readonly Outcome[],
  words: Wordings = WORDINGS,
): string {
  const started = stages.filter((stage) => stage.status !== 'not-started' && stage.status !== 'skipped');
  return words.verdict.startRefused(
    stageOutcome(blamed, words),
    started.map((stage) => stage.index),
  );
}

// A stop's verdict names the stages that had exited before it too, so nobody goes looking at them,
// and those that were only waiting for input from an earlier stage.
export function timeoutReason(
  blamed: Outcome,
  stages: readonly Outcome[],
  words: Wordings = WORDINGS,
): string {
  const { verdict, outcome } = words;
  const before = stages
    .filter((stage) => !stage.stop && stage.exitCode !== null && stage.status !== 'not-started')
    .map((stage) => verdict.exitedBeforeStop(outcome.who(stage), stage.exitCode));
  const waiting = stages
    .filter((stage) => stage !== blamed && stage.stop?.waitingForStage)
    .map((stage) => verdict.onlyWaiting(outcome.who(stage), stage.stop!.waitingForStage!));
  return [stageOutcome(blamed, words), ...before, ...waiting].join('; ');
}

// How a stage ended, in a few words: "failed with exit 1", "killed by SIGKILL".
export function outcomePhrase(stage: StageResult, words: Wordings = WORDINGS): string {
  const said = words.phrase;
  switch (stage.status) {
    case 'ok':
      return said.ok;
    case 'failed':
      return said.failed(stage.exitCode);
    case 'not-started':
      return said.notStarted(stage.error?.code ?? 'error', stage.error?.message ?? 'unknown');
    case 'skipped':
      return said.skipped;
    case 'signaled':
      return said.killed(stage.signal);
    case 'sigpipe':
      return said.sigpipe(stage.succeeded);
    default:
      return said.stoppedAs(stage.status, stage.stop?.reason ?? null);
  }
}

// The table's STATUS cell: a tolerated SIGPIPE and an optional stage that failed say so.
export function statusText(stage: StageResult, words: Wordings = WORDINGS): string {
  if (stage.status === 'sigpipe' && stage.succeeded) return words.table.status(stage.status, 'tolerated');
  if (stage.optional && !stage.succeeded && stage.status !== 'skipped')
    return words.table.status(stage.status, 'optional');
  return words.table.status(stage.status, null);
}

// The report's `to`: where a redirection sent a stream, in words.
export function targetText(target: StreamTarget, words: Wordings = WORDINGS): string {
  return words.target(target);
}
