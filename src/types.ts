import type { Fact } from './facts/fold-facts.js';
import type { Script } from './shell/syntax.js';

// The data that flows through safe-run: inputs become a Plan, the engine turns a Plan into a Report.
// Nothing downstream of the engine reaches back into it.

export type Policy = 'pipefail' | 'first-failure' | 'last';
export type SigpipeMode = 'tolerate' | 'fail';
export type OnLimit = 'truncate' | 'kill';
export type LeftoversMode = 'kill' | 'keep';

// A redirection of one stage, applied left to right before it starts (src/engine/apply-redirects.ts).
// `path` is relative to the stage's directory; `ambiguous` is a target that expanded to other than
// one word, which fails the stage when reached, as in bash.
export type StageRedirect =
  | { kind: 'file'; fd: 0 | 1 | 2; path: string; mode: 'read' | 'write' | 'append'; line?: number }
  | { kind: 'dup'; fd: 0 | 1 | 2; from: 0 | 1 | 2 }
  | { kind: 'heredoc'; fd: 0 | 1 | 2; body: string }
  | { kind: 'ambiguous'; fd: 0 | 1 | 2; word: string; line?: number };

export type StdinSource = { kind: 'inherit' } | { kind: 'null' } | { kind: 'file'; path: string };

// One stage as the user declared it, after validation.
export interface StageSpec {
  name: string;
  // argv[0] is the program as asked (a name looked up on PATH, or a path).
  argv: string[];
  // Variables added to (or overriding) the inherited environment.
  env: Record<string, string>;
  cwd: string | null;
  okCodes: number[];
  // An optional stage's failure is shown but never decides the verdict.
  optional: boolean;
  timeoutMs: number | null;
  maxStdout: number | null;
  maxStderr: number | null;
  // Redirections of the stage's own stdin, stdout and stderr (-c text); absent: none.
  redirects?: StageRedirect[];
  // The argv actually executed when it differs from `argv` (a bash builtin run by bash); absent: argv.
  launch?: string[];
  // The line of the -c text the command is on, for bash's messages ("bash: line 2: x: command not found").
  line?: number;
}

// Pipeline-wide settings; the effective values are echoed in the report.
export interface Settings {
  policy: Policy;
  sigpipe: SigpipeMode;
  stdin: StdinSource;
  timeoutMs: number | null;
  idleTimeoutMs: number | null;
  killAfterMs: number;
  drainTimeoutMs: number;
  maxStdout: number;
  maxStderr: number;
  onLimit: OnLimit;
  // The last stage's stdout is the pipeline's product: streamed whole by default, or capped like stderr.
  liveStdout: 'full' | 'capped';
  logDir: string | null;
  maxLog: number;
  leftovers: LeftoversMode;
  failFast: boolean;
  // Names of environment variables whose values are masked, in addition to the secret-looking ones.
  mask: string[];
  // Path of the environment-facts ledger, or null when disabled.
  facts: string | null;
}

export interface Plan {
  source: 'argv' | 'inline' | 'spec';
  stages: StageSpec[];
  settings: Settings;
  // The environment stages start from instead of safe-run's own (a -c step after export or cd).
  env?: Record<string, string>;
  // -c text interpreted by safe-run as a list of steps (absent for argv, spec and --fallback runs).
  shell?: ShellPlan;
  // The directory the run starts in (--cwd); absent: safe-run's own.
  cwd?: string;
  // Set when --fallback bash hands the text to bash as one stage.
  fallback?: FallbackInfo;
  // As bash: a stage whose program cannot start fails alone (127/126) and the others run. Without
  // it (argv and spec runs), nothing starts when one stage cannot.
  startEach?: boolean;
}

export interface ShellPlan {
  script: Script;
  // Accepted exit codes of each command of the text, in the order written (from --ok-codes).
  okCodes: number[][];
}

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
  // Kept text (head and tail, with a marker at the cut); null when not captured or binary.
  text: string | null;
  binary: boolean;
  // Where the whole stream was saved (--log-dir), else null.
  logFile: string | null;
  // Where a redirection sent the stream instead ("file out.txt", "stdout"): then it was not captured.
  to?: string;
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

// One process of a stage at the moment safe-run stopped it: what it was waiting for.
export interface BlockedProcess {
  pid: number;
  command: string;
  // From /proc/PID/stat: R running, S sleeping, D uninterruptible, T stopped.
  state: string;
  // The kernel function it sleeps in (anon_pipe_write, do_wait...), or null.
  wchan: string | null;
  // The system call it is in (read, write, wait4...), or null.
  syscall: string | null;
  // The same in words: "blocked writing to a full pipe on stdout, the pipe to stage 2 \"head\"".
  doing: string;
}

// Why and when safe-run stopped a stage, the signals it sent (in order), and what the stage's
// processes were doing at that moment.
export interface StageStop {
  reason: string;
  afterMs: number;
  signals: string[];
  snapshot: BlockedProcess[];
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
}

// The text was run by bash as one stage, because of a construct safe-run does not interpret.
export interface FallbackInfo {
  construct: string;
  column: number;
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

// An environment fact about one of the run's programs (docs/environment-facts.md).
export interface ReportFact extends Fact {
  // 1-based index of the stage whose program it is about.
  stage: number;
  summary: string;
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
  steps?: StepReport[];
  // Set when --fallback bash ran the text under bash as one stage.
  fallback?: FallbackInfo | null;
}
