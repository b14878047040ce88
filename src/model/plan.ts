import type {
  LeftoversMode,
  LiveStdoutMode,
  OnDeadlock,
  OnLimit,
  Policy,
  SigpipeMode,
} from './setting-values.js';
import type { Script } from './shell-tree.js';
import type { StreamTarget } from './stream-target.js';

// What every input (argv, -c text, a spec file, the library) becomes before anything runs.

// A redirection of one stage, applied left to right before it starts (src/engine/apply-redirects.ts).
// `fd` is the stage's descriptor: 0-2 its stdin, stdout and stderr, 3 and above the further ones a
// -c text gives its programs (`exec 3>log`, `cmd 3>&1`), as bash's children inherit them.
// `path` is relative to the stage's directory; `ambiguous` is a target that expanded to other than
// one word, which fails the stage when reached, as in bash.
export type StageRedirect =
  | {
      kind: 'file';
      fd: number;
      path: string;
      mode: 'read' | 'write' | 'append' | 'readwrite';
      line?: number;
      // A -c target whose pathname expansion can see a file an earlier redirection creates: expanded
      // when the engine reaches it, as bash does (one field expected; `path` is then the word as written).
      expand?: () => Promise<string[]>;
    }
  // A copy of the stage's descriptor `from` as redirected so far; one that is not open fails the
  // stage as bash fails it ("3: Bad file descriptor").
  | { kind: 'dup'; fd: number; from: number; line?: number }
  // `3>&-`: the stage does not get descriptor `fd` (3 and above; 0-2 are always open).
  | { kind: 'close'; fd: number }
  // A descriptor the -c interpreter holds (a redirection of a group, a pipe into a compound command):
  // the stage gets it as its `fd`; `owned`: the engine closes it once the stage holds it.
  | { kind: 'descriptor'; fd: number; from: number; owned: boolean; what: StreamTarget }
  | { kind: 'heredoc'; fd: number; body: string }
  // The run's own stdout (what the last stage's stdout becomes): a -c stage's stderr sent there by a
  // `2>&1` around a pipeline whose other stages it writes through (`{ a | b; } 2>&1`), or a
  // descriptor the text copied from it (`exec 3>&1`).
  | { kind: 'run-stdout'; fd: number }
  // The run's own stdin (what the first stage reads), copied by the text (`exec 3<&0`).
  | { kind: 'run-stdin'; fd: number }
  | { kind: 'ambiguous'; fd: number; word: string; line?: number };

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
  // The name those messages begin with: the shell's $0 (bash for a -c text, a script's own name).
  shell?: string;
  // The PATH its program is looked up on when it is not the environment's: '' for a -c text that
  // unset PATH (bash then finds no program by name; the default PATH is only for a shell started
  // without one).
  searchPath?: string;
  // Executed as the file found even when named by a relative path (bash's exec builtin); otherwise a
  // program named by a path is executed by that path as written.
  execFound?: true;
  // The shell an executable file without a #! line runs under, when not /bin/sh (execvp's): a -c
  // text's programs give bash's own, as bash runs such a file itself.
  noShebangShell?: string;
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
  // A deadlock among the run's processes (docs/debugging-hangs.md): wait for a time limit, or stop
  // the run as soon as one is seen.
  onDeadlock: OnDeadlock;
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
  // The text as bash reads it: bytes (a latin1 string of the UTF-8 text), which the tree's offsets
  // index.
  source: string;
  // $0 and $1... (`bash -c TEXT $0 ARGS`, or --script FILE ARGS).
  arg0: string;
  args: string[];
  // bash -e: errexit from the start.
  errexit: boolean;
  // --script FILE: the text is a script file's, as `bash FILE` runs it (no `c` in $-, status 1 after
  // a fatal expansion error), not `bash -c TEXT`'s.
  file: boolean;
  // Accepted exit codes of each simple command of the text, in the order written (from --ok-codes).
  okCodes: number[][];
}

// The text was run by bash as one stage, because of a construct safe-run does not interpret.
export interface FallbackInfo {
  construct: string;
  column: number;
}
