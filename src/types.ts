import type { Script } from './shell/syntax.js';
// The data that flows through safe-run: inputs become a Plan, the engine turns a Plan into a Report.
// Nothing downstream of the engine reaches back into it.

import type { LeftoversMode, LiveStdoutMode, OnLimit, Policy, SigpipeMode } from './settings/values.js';

export type { LeftoversMode, LiveStdoutMode, OnLimit, Policy, SigpipeMode } from './settings/values.js';

// A redirection of one stage, applied left to right before it starts (src/engine/apply-redirects.ts).
// `path` is relative to the stage's directory; `ambiguous` is a target that expanded to other than
// one word, which fails the stage when reached, as in bash.
export type StageRedirect =
  | {
      kind: 'file';
      fd: 0 | 1 | 2;
      path: string;
      mode: 'read' | 'write' | 'append';
      line?: number;
      // A -c target whose pathname expansion can see a file an earlier redirection creates: expanded
      // when the engine reaches it, as bash does (one field expected; `path` is then the word as written).
      expand?: () => Promise<string[]>;
    }
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
  // Stop the pipeline when a stage has been quiet this long right after printing a prompt ("[y/N]",
  // "Password:"): it waits for an answer nobody will give. Null: never (the default outside --agent).
  promptWaitMs: number | null;
  killAfterMs: number;
  drainTimeoutMs: number;
  maxStdout: number;
  maxStderr: number;
  onLimit: OnLimit;
  // The last stage's stdout is the pipeline's product: streamed whole by default, or capped like stderr.
  liveStdout: LiveStdoutMode;
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

export type BlockedOp = 'read' | 'write' | 'wait' | 'poll' | 'sleep' | 'other';

// What a process is blocked on: the operation, the fd (null when none or unknown) and what that is
// ("pipe:[123]", "fifo:[123]", "terminal /dev/pts/3", "file /x", "socket:[9]", "child 51", "unknown").
export interface BlockedOn {
  op: BlockedOp;
  fd: number | null;
  target: string | null;
}

// A process holding the other end of the pipe a process is blocked on.
export interface PipePeer {
  pid: number;
  command: string;
  fds: number[];
  // True when it is reading (or waiting to read) this pipe right now.
  reading: boolean;
  // True when the peer is safe-run itself.
  safeRun: boolean;
}

// One process of a hung tree, at a stop or from `safe-run inspect` (docs/debugging-hangs.md).
export interface BlockedProcess {
  pid: number;
  ppid: number;
  // 1-based stage index, or null (an escaped process, or not started by safe-run).
  stage: number | null;
  command: string;
  // From /proc/PID/stat: R running, S sleeping, D uninterruptible, T stopped, Z exited.
  state: string;
  // The kernel function it sleeps in (anon_pipe_write, do_wait...), or null.
  wchan: string | null;
  // null when running or exited.
  blocked: BlockedOn | null;
  // For a pipe or FIFO fd: every holder of its other end; else null.
  peers: PipePeer[] | null;
  explanation: string;
}

// A set of processes that wait only for one another: none can ever go on.
export interface Deadlock {
  pids: number[];
  explanation: string;
}

// Why and when safe-run stopped a stage, the signals it sent (in order), and what the stage's
// processes were doing at that moment.
export interface StageStop {
  reason: string;
  afterMs: number;
  signals: string[];
  snapshot: BlockedProcess[];
  // A deadlock among the run's processes at that moment, or null.
  deadlock: Deadlock | null;
  // Set when every process of the stage was only waiting for input from that (earlier) stage.
  waitingForStage: number | null;
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

// A fact about the machine: one program that could not be started, for one reason, from the first
// time it was seen until it started again. This is the public JSON shape (`facts[]`, `safe-run facts
// --json`); docs/environment-facts.md describes it field by field. cwd, found, pathVar and message
// are those of the latest sighting.
export interface Fact {
  // argv[0] as the user asked for it.
  program: string;
  cwd: string;
  // The file PATH lookup (or the path given) led to, null when nothing was found.
  found: string | null;
  code: string;
  cause: string;
  exitCode: number;
  message: string;
  interpreter: string | null;
  // PATH as the stage saw it, null when unset.
  pathVar: string | null;
  firstSeen: string;
  lastSeen: string;
  count: number;
  // When the program next started (and what was executed then); null while the fact is open.
  resolvedAt: string | null;
  resolvedPath: string | null;
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
  // --output: where the product went, or null when it streamed to stdout (docs/publishing-outputs.md).
  output: OutputReport | null;
  // --expect / --expect-cmd checks on the staged output, in the order given.
  checks: CheckResult[];
  steps?: StepReport[];
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
