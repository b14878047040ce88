import type { Report, StageResult } from '../../types.js';
import type { ExpansionError } from '../expand/env.js';
import type { Expander } from '../expand/word.js';
import type { AndOr, Command, Redirect, SimpleCommand, Span, Stmt } from '../syntax/nodes.js';
import type { Bytes } from '../syntax/source.js';
import type { FdTable } from './fds.js';
import type { Job } from './jobs-table.js';
import type { RedirectFailure } from './redirect-failure.js';
import type { Runtime } from './runtime.js';
import type { Shell } from './shell.js';

// Where a command runs: under which step (a command substitution's, a pipeline element's), in which
// pass of the loops around it.
export interface Placement {
  parentStep: number | null;
  iteration: string | null;
  // The text the tree being run was parsed from (the -c text, a sourced file, an eval's string).
  source: Bytes;
  // The background job this runs in, if any.
  job?: Job;
  // Set in an EXIT trap that runs after a stop of the run (stops.ts afterStop).
  afterStop?: true;
  // Set where a compound command is one element of a pipeline: the command, and where its stage goes.
  element?: { node: Span; collect: (part: Collected) => void };
  // Set for one element of a pipeline: the element's stages go to the pipeline's step instead of a
  // step of their own.
  collect?: (part: Collected) => void;
}

export interface Collected {
  stages: StageResult[];
  report?: Report;
  // This element's stage is among another's (programs run together by one engine run).
  covered?: boolean;
  // Stages of a command substitution in the element's words: shown with the pipeline, not judged.
  substitution?: boolean;
}

// What the parts of the interpreter (compound commands, simple commands, builtins, pipelines) need
// from the runner that walks the tree, without importing it.
export interface RunnerApi {
  readonly rt: Runtime;
  readonly sh: Shell;
  readonly ex: Expander;
  readonly place: Placement;
  list(stmts: readonly Stmt[]): Promise<number>;
  andOr(list: AndOr): Promise<number>;
  command(command: Command): Promise<number>;
  // A new runner over a copy of this shell (a subshell), optionally with other descriptors.
  subshell(fds?: FdTable, place?: Partial<Placement>): RunnerApi;
  // Runs `work` with the shell's descriptors changed by `redirects`, restored after; a redirection that
  // fails makes the command fail (status 1) without running it.
  withRedirects(
    redirects: readonly Redirect[],
    work: () => Promise<number>,
    failed?: (failure: RedirectFailure) => void | Promise<void>,
  ): Promise<number>;
  // Runs `work` where errexit does not apply (a condition, a && operand, under !).
  exempt<T>(work: () => Promise<T>): Promise<T>;
  // errexit: the shell ends when a command fails outside such places.
  checkErrexit(status: number): void;
  // Ends the text here if it was stopped meanwhile (a limit stopped a substitution of the command's
  // words, safe-run was signalled): a command whose expansion a stop cut short must not run with
  // what it got (`rm -rf "$(slow)"/*`), as nothing runs in bash once `timeout` has killed it.
  // `node`: the command, then shown as not run.
  checkStopped(node?: Span): void;
  // Prints "bash: line N: message" on the shell's stderr.
  error(message: string): Promise<void>;
  // Calls a shell function with these arguments.
  callFunction(name: string, args: string[]): Promise<number>;
  // An expansion failed: bash prints why and ends the shell (or only fails the command).
  expansionFailed(error: ExpansionError): Promise<number>;
  // The shell's EXIT trap, when it ends (once).
  runExitTrap(): Promise<void>;
  // eval's and source's text, parsed and run in this shell (`args`: $1... while it runs).
  runText(
    text: Bytes,
    // `firstLine`: what its first line is numbered ($LINENO, messages): eval's and an ERR trap's
    // text go on from the command's line. `sourced`: the file's name as bash gives it (BASH_SOURCE).
    options: {
      label: string;
      args?: Bytes[] | null;
      sourced?: Bytes;
      indirect?: boolean;
      firstLine?: number;
    },
  ): Promise<number>;
  // Words already expanded, run as a command (for `command NAME ...`: functions skipped).
  runCommandWords(words: Bytes[], options: { functions: boolean; command?: SimpleCommand }): Promise<number>;
  // NAME or NAME[index] = value (printf -v, read): 0, or the status of an error it reported.
  assignNamed(target: Bytes, value: Bytes): Promise<number>;
}
