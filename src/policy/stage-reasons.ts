import type { StageResult } from '../types.js';

// The words of a verdict's reason: what happened to the stage that decided it.

// A stage's outcome, as much of it as the verdict reads.
export type Outcome = Pick<
  StageResult,
  'status' | 'exitCode' | 'signal' | 'optional' | 'name' | 'index' | 'error'
> &
  Partial<Pick<StageResult, 'stop'>>;

// The kernel refused a stage that preflight accepted: say which stages had started (and were then
// stopped by safe-run), or that none had.
export function startRefused(blamed: Outcome, stages: readonly Outcome[]): string {
  const started = stages.filter((stage) => stage.status !== 'not-started' && stage.status !== 'skipped');
  if (started.length === 0) return `${describe(blamed)}: the kernel refused it; nothing else was started`;
  const which = started.map((stage) => stage.index).join(', ');
  const many = started.length > 1;
  return `${describe(blamed)}: the kernel refused it after stage${many ? 's' : ''} ${which} had started; safe-run stopped ${many ? 'them' : 'it'}`;
}

export function describe(stage: Outcome): string {
  const who = `stage ${stage.index} "${stage.name}"`;
  switch (stage.status) {
    case 'failed':
      return `${who} failed with exit ${stage.exitCode}`;
    case 'signaled':
    case 'sigpipe':
      return `${who} was killed by ${stage.signal}`;
    case 'not-started':
      if (stage.error?.during === 'redirect' || stage.error?.during === 'command')
        return `${who} failed: ${stage.error.message}`;
      return `${who} could not be started (${stage.error?.code ?? 'error'})`;
    case 'timeout':
    case 'limit':
    case 'cancelled':
      return stage.stop
        ? `${who} was stopped: ${stage.stop.reason}`
        : `${who} was ${stage.status === 'cancelled' ? 'cancelled' : `stopped (${stage.status})`}`;
    default:
      return `${who} ended as ${stage.status}`;
  }
}

// Names the stages that had exited before the stop too, so nobody goes looking at them.
export function timeoutReason(blamed: Outcome, stages: readonly Outcome[]): string {
  const before = stages
    .filter((stage) => !stage.stop && stage.exitCode !== null && stage.status !== 'not-started')
    .map((stage) => `stage ${stage.index} "${stage.name}" exited ${stage.exitCode} before the stop`);
  const waiting = stages
    .filter((stage) => stage !== blamed && stage.stop?.waitingForStage)
    .map(
      (stage) =>
        `stage ${stage.index} "${stage.name}" was only waiting for input from stage ${stage.stop!.waitingForStage}`,
    );
  return [describe(blamed), ...before, ...waiting].join('; ');
}
