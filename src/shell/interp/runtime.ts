import type { OpenStop } from '../../engine/fifo-open.js';
import type { RunHandle, RunIO } from '../../engine/run-pipeline.js';
import type { RunSupport } from '../../engine/run-support.js';
import type { Interruption, Settings } from '../../types.js';
import type { Oracle } from '../expand/oracle.js';
import type { SimpleCommand } from '../syntax/nodes.js';
import type { Jobs } from './jobs-table.js';
import type { Recorder } from './recorder.js';

// What every shell of one run shares (the text's shell, its subshells, its functions): the settings,
// the watchdog and FIFOs, the oracle, where the run's own output goes, the report being recorded,
// the time limit, and the engine runs in flight.
export interface Runtime {
  readonly settings: Settings;
  // The environment the run started with (its secrets are masked in the report).
  readonly environment: Readonly<Record<string, string>>;
  // The text as written, for the report.
  readonly command: string;
  readonly support: RunSupport;
  readonly oracle: Oracle;
  readonly io: RunIO;
  readonly recorder: Recorder;
  // --stdin FILE, opened once by the first command that reads it and shared by every later one.
  readonly stdin: { fd: number | null };
  // $$
  readonly pid: number;
  // monotonicMs() at which the run's time limit runs out; null without one.
  readonly deadline: number | null;
  // Set when safe-run was asked to stop (a signal, or a request such as job_kill): nothing more starts.
  cancelled: Interruption | null;
  // Set when one of safe-run's own limits stopped a command, or the time ran out between commands,
  // or a command was refused when reached (`why`, in words): the text stops there, not ok.
  stoppedBy: { kind: 'limit'; byTime?: true } | { kind: 'time' } | { kind: 'refused'; why: string } | null;
  // Set when the run's time ran out between commands: the step that could not start.
  timedOutBefore: number | null;
  // How many steps the text itself had recorded when it ended (its EXIT trap included): the steps of
  // background jobs stopped after it are the run's leftovers, never its last step.
  stepsOfText: number | null;
  // Whether each $'...' of a line reached was read as UTF-8 (the locale's, when bash read the line:
  // its \u escapes are decoded then, not when the word is expanded).
  readonly ansiRead: WeakMap<object, boolean>;
  // While the EXIT trap runs after a stop (the time limit, a signal): its time (wait-stop.ts).
  grace: Grace | null;
  // Set when a command was refused when it was reached: its step, and why.
  refused: { step: number; why: string } | null;
  // What ends a builtin's wait in the open of a FIFO: the run's time limit or a signal to safe-run.
  readonly openStop: Promise<OpenStop>;
  readonly running: Set<RunHandle>;
  // The text's background jobs.
  readonly jobs: Jobs;
  // Signals a subshell sent to the text's shell (kill -SIG $$): it takes them once the command it
  // waits for has ended (self-signal.ts); false: not fatal untrapped.
  readonly shellSignals: Map<string, boolean>;
  // Processes outside the run that `kill` may signal (StartState.vouched): the MCP session's jobs.
  readonly vouched: ((pid: number) => boolean) | null;
  // A private directory for the run's scratch files (made when first asked for).
  scratch(): string;
  // The exit codes --ok-codes accepts for a command as written (null: only 0).
  okCodesFor(command: SimpleCommand): number[] | null;
}

// The time of an EXIT trap that runs after a stop: until when (monotonic ms), what ends its waits
// then, and what ends it early (a second signal).
export interface Grace {
  until: number;
  readonly stop: Promise<OpenStop>;
  end(): void;
}
