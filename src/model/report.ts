import type { ReportFact } from './fact.js';
import type { StageStop } from './hang.js';
import type { FallbackInfo, Settings } from './plan.js';
import type { Policy } from './setting-values.js';
import type { StreamTarget } from './stream-target.js';

// What a run gives back: one result per stage, the verdict, and what happened around them. The
// report is plain data (its JSON is a public contract, docs/json-report.md); reporters only read it.

export type StageStatus =
  | 'ok'
  | 'failed'
  | 'signaled'
  | 'sigpipe'
  | 'not-started'
  | 'skipped'
  | 'timeout'
  | 'limit'
  | 'cancelled';

export interface StreamReport {
  // Bytes the stage wrote to this stream; null when the stream went straight into the next stage's pipe.
  bytes: number | null;
  truncated: boolean;
  omittedBytes: number;
  // Kept text (head and tail, with a marker at the cut), bytes that are not UTF-8 as \xHH; null
  // when not captured or binary (a NUL byte, or more than an eighth of the bytes not UTF-8).
  text: string | null;
  binary: boolean;
  // Bytes of `text` shown as \xHH; present only when there are some.
  escapedBytes?: number;
  // Where the whole stream was saved (--log-dir), else null.
  logFile: string | null;
  // Where a redirection sent the stream instead, in words ("file out.txt", "stdout"), rendered from
  // `target`: then it was not captured.
  to?: string;
  target?: StreamTarget;
}

export interface StageError {
  code: string;
  message: string;
  // The exit code bash gives for this failure to start (127 not found, 126 cannot execute, 1 a
  // redirection that failed).
  exitCode: 1 | 126 | 127;
  // 'preflight': found before anything started (nothing started); 'start': the kernel refused it
  // later; 'redirect': one of its redirections failed (the other stages ran, as in bash); 'command':
  // a -c stage whose program cannot be found or executed (the other stages ran, as in bash).
  during: 'preflight' | 'start' | 'redirect' | 'command';
}

export interface StageResult {
  index: number;
  name: string;
  argv: string[];
  // The file that was (or would have been) executed.
  resolvedPath: string | null;
  status: StageStatus;
  // True when this stage counts as a success for the policy (ok, tolerated SIGPIPE, optional...).
  succeeded: boolean;
  exitCode: number | null;
  signal: string | null;
  pid: number | null;
  startedAt: string | null;
  durationMs: number | null;
  optional: boolean;
  stdout: StreamReport;
  stderr: StreamReport;
  stop: StageStop | null;
  error: StageError | null;
  hint: string | null;
  // What the exit code means by the program's own contract (docs/exit-codes.md), or null when unknown.
  meaning: string | null;
  // 1-based index of the step (a pipeline of a -c list) the stage belongs to.
  step?: number;
  // How a shell builtin ran: "bash builtin" (run by bash), "shell state" (done by safe-run itself).
  builtin?: string;
}

// One pipeline of a -c list (or the whole run for argv and spec files).
export interface StepReport {
  index: number;
  // The pipeline as written; for argv and spec runs, the command line or the stage names.
  text: string;
  // How it joins the previous step: `&&`, `||`, `;` (or a newline), null for the first.
  connector: '&&' | '||' | ';' | null;
  // False when the list skipped it (`a && b` after a failed a): then it has no stages.
  ran: boolean;
  exitCode: number | null;
  // The directory it ran in (bash's logical $PWD).
  cwd: string;
  // 1-based indexes of its stages.
  stages: number[];
  // What the words that expand became (a word and its fields).
  expansions?: { word: string; fields: string[] }[];
  // The line of the text it is on.
  line?: number;
  // The step it ran inside (a command substitution, a pipeline element), when nested.
  parent?: number;
  // Which pass of the loops around it ("3", or "2.5" inside two loops), when inside a loop.
  iteration?: string;
  // How many more times the same command, at the same line, succeeded after this one (folded to keep
  // the report bounded).
  repeats?: number;
  // Set when it did not run for a reason other than the list's short circuit: 'timeout', the run's
  // time limit had run out before it could start; 'refused', safe-run refused it when it was reached
  // (the run's verdict says why); 'after-refusal', a step before it was refused; 'exit', an `exit`
  // step before it ended the text; 'errexit', set -e ended the text at a failed command before it;
  // 'error', the shell ended on an error before it (as bash does on `${x:?}` with x unset); 'stopped',
  // one of safe-run's own limits (idle, prompt wait, output cap) stopped a stage of a step before it.
  skippedBecause?: 'timeout' | 'refused' | 'after-refusal' | 'exit' | 'errexit' | 'error' | 'stopped';
}

export interface Verdict {
  ok: boolean;
  exitCode: number;
  // 1-based index of the stage whose outcome decided the exit code, if any.
  blamedStage: number | null;
  reason: string;
}

export interface Leftover {
  pid: number;
  command: string;
  stage: string | null;
  how: string;
  action: 'killed' | 'kept';
}

export interface Report {
  schemaVersion: 1;
  ok: boolean;
  exitCode: number;
  policy: Policy;
  verdict: Verdict;
  startedAt: string;
  durationMs: number;
  stages: StageResult[];
  settings: Settings;
  leftovers: Leftover[];
  facts: ReportFact[];
  warnings: string[];
  // What to do next, in one sentence; null when there is nothing to do.
  next: string | null;
  // --output: where the product went, or null when it streamed to stdout (docs/publishing-outputs.md).
  output: OutputReport | null;
  // --expect / --expect-cmd checks on the staged output, in the order given.
  checks: CheckResult[];
  steps?: StepReport[];
  // The -c text (or script) as written, for a run of one.
  command?: string;
  // Set when --fallback bash ran the text under bash as one stage.
  fallback?: FallbackInfo | null;
}

// One check of the staged output before it is published.
export interface CheckResult {
  // As the user wrote it: "nonempty", "lines>=3", "cmd: jq -e .".
  check: string;
  status: 'passed' | 'failed' | 'skipped';
  // One sentence: what was found.
  detail: string;
  durationMs: number | null;
}

// What happened to the product stream of a run with --output FILE.
export interface OutputReport {
  file: string;
  // The temporary file the product was written to, beside FILE.
  staged: string;
  // Bytes the last stage wrote into it.
  bytes: number;
  // True when the staged file was renamed over FILE.
  published: boolean;
  // FILE.partial when --keep-partial kept an unpublished product, else null.
  kept: string | null;
  // Why it was (not) published, in one sentence.
  reason: string;
}
