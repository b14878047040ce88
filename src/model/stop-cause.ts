// Why safe-run stopped a stage, as data. The report's `stop.reason` and the advice in `next` are
// rendered from it (src/outcome-text/), never read back from those words.

export const STOP_CAUSE_KINDS = [
  // --timeout: the whole pipeline's time limit.
  'pipeline-timeout',
  // A stage's own time limit (`timeout:` of a spec stage).
  'stage-timeout',
  // --idle-timeout: no stage wrote anything for that long.
  'idle-timeout',
  // --prompt-wait: a stage went quiet after printing a question.
  'prompt',
  // --prompt-wait: a stage went quiet with a full-screen program (an editor, a pager) open.
  'full-screen',
  // --on-deadlock stop: the run's processes waited only for one another.
  'deadlock',
  // --on-limit kill: the stage wrote more than its cap.
  'output-limit',
  // --fail-fast: another stage failed.
  'fail-fast',
  // The kernel refused to start another stage after this one had started.
  'start-refused',
  // A signal to safe-run itself (Ctrl-C, SIGTERM from a CI runner).
  'signal',
  // A stop asked for on the user's behalf, not a signal to safe-run: the text's own `kill`, the MCP
  // tool job_kill, the MCP client cancelling its call, a background job still running at the text's end.
  'requested',
  // safe-run failed internally and stopped everything.
  'internal-error',
] as const;
export type StopCauseKind = (typeof STOP_CAUSE_KINDS)[number];

export type StopCause =
  | { kind: 'pipeline-timeout'; limitMs: number }
  | { kind: 'stage-timeout'; limitMs: number }
  | { kind: 'idle-timeout'; limitMs: number }
  // `line`: the question, as the stage printed it (trimmed).
  | { kind: 'prompt'; line: string }
  | { kind: 'full-screen' }
  | { kind: 'deadlock' }
  | { kind: 'output-limit' }
  // `stage`: the name of the stage that failed (or was killed by a signal safe-run did not send).
  | { kind: 'fail-fast'; stage: string; status: 'failed' | 'signaled' }
  // `stage`: the 1-based index of the stage the kernel refused, `name` its name, `code` the error.
  | { kind: 'start-refused'; stage: number; name: string; code: string }
  | { kind: 'signal'; signal: string }
  | { kind: 'requested'; signal: string; by: CancelSource }
  | { kind: 'internal-error' };

// Who asked for a stop that is not a signal to safe-run (see 'requested' above).
export type CancelSource = 'kill' | 'job_kill' | 'client' | 'text-end';

// A run stopped as a whole: the signal its stages got, and who asked when it was not a signal to
// safe-run itself.
export interface Interruption {
  signal: NodeJS.Signals;
  by?: CancelSource;
}

// Why a stage was stopped, as the report keeps it (beside the reason rendered from it).
export interface StopFacts {
  cause: StopCause;
  // Set when the stop came while an open of a FIFO waited for its other end.
  fifo?: FifoWait;
}

// The stop came while an open of a FIFO was waiting for its other end: one of the stage's
// redirections, or the run's stdin (--stdin FIFO).
export type FifoWait = { kind: 'redirect' } | { kind: 'stdin'; path: string };
