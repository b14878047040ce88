// The data that flows through safe-run: inputs become a Plan, the engine turns a Plan into a Report.
// Nothing downstream of the engine reaches back into it.

import type { LeftoversMode, LiveStdoutMode, OnLimit, Policy, SigpipeMode } from './settings/values.js';

export type { LeftoversMode, LiveStdoutMode, OnLimit, Policy, SigpipeMode } from './settings/values.js';

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
}

export interface StageError {
  code: string;
  message: string;
  // The exit code bash gives for this failure to start (127 not found, 126 cannot execute).
  exitCode: 126 | 127;
  // 'preflight': found before anything started (nothing started); 'start': the kernel refused it when it
  // was spawned (the stages before it were stopped, those after it skipped).
  during: 'preflight' | 'start';
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
