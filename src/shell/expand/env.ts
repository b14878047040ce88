import type { CmdSubst, ProcSubst } from '../syntax/nodes.js';
import type { Bytes } from '../syntax/source.js';
import type { Oracle } from './oracle.js';
import type { Variables } from './vars.js';

// What expanding a word needs from the shell that runs it. The interpreter implements it; expansion
// never runs anything itself: command and process substitutions are handed back to the interpreter.
export interface ExpandEnv {
  readonly vars: Variables;
  // $1 ... (not $0).
  readonly positional: readonly Bytes[];
  // $0
  readonly arg0: Bytes;
  // $?
  readonly status: number;
  // $$ and $!
  readonly pid: number;
  readonly lastBackground: number | null;
  // $- : the single-letter options that are on.
  flags(): Bytes;
  // $_
  readonly lastArg: Bytes;
  // A variable whose value the shell computes when it is read (RANDOM, SECONDS, LINENO, BASHPID...);
  // undefined for any other name.
  dynamic(name: string): Bytes | undefined;
  // ${PIPESTATUS[@]}: the statuses of the last foreground pipeline (one for a simple command).
  readonly pipestatus: readonly number[];
  // ${DIRSTACK[@]}: the directory, then the ones pushd saved; ${BASH_VERSINFO[@]}.
  readonly dirStack: readonly Bytes[];
  readonly bashVersinfo: readonly Bytes[];
  // ${FUNCNAME[@]}: the functions called (and `source`, `main`), innermost first; none outside them.
  readonly funcNames: readonly Bytes[];
  // ${BASH_SOURCE[@]} (and with `lines`, ${BASH_LINENO[@]}): the file of each function running and sourced file,
  // innermost first (a script's name at the bottom), and the line each was called or sourced from.
  sourceStack(lines: boolean): readonly Bytes[];
  readonly lineno: number;
  readonly nounset: boolean;
  readonly noglob: boolean;
  shopt(name: string): boolean;
  // The logical working directory ($PWD), where globs are matched.
  readonly cwd: string;
  readonly oracle: Oracle;
  // Runs $( ... ) or `...` and gives its output (trailing newlines not yet removed).
  substitute(part: CmdSubst): Promise<Bytes>;
  // Starts <( ... ) or >( ... ) and gives the name that reaches it (/dev/fd/N).
  processSubstitute(part: ProcSubst): Promise<Bytes>;
  // A warning bash prints and goes on after (a NUL byte in a substitution's output).
  warn(message: string): void;
  // Whether a $'...' was read under a UTF-8 locale (undefined when it was not stamped as read).
  ansiRead(part: object): boolean | undefined;
}

// A failed expansion: bash prints the message and stops the shell (a non-interactive one) with
// `status`; for some (`discard`: failglob's no match) only the eval, sourced file or trap action
// running it, or the shell when none is.
export class ExpansionError extends Error {
  constructor(
    message: string,
    readonly status: number,
    // 'arith': discarded without errexit (an arithmetic error: bash goes on under set -e too);
    // 'top': see TopLevelError.
    readonly discard: Discard = false,
  ) {
    super(message);
  }
}

export type Discard = boolean | 'arith' | 'top';

// An arithmetic error in an array's subscript or a value given an integer variable (outside
// arithmetic's own assignments): bash leaves for its top level, out of any function, eval or sourced
// file. A -c text ends there (status 1); a script goes on with the line after the one it was reading,
// under set -e too; a subshell ends. `named`: a builtin's name goes before a value's error.
export class TopLevelError extends ExpansionError {
  constructor(
    message: string,
    readonly named = false,
  ) {
    super(message, 1, 'top');
  }
}

// An error of arithmetic's own (a division by 0, a syntax error, a readonly variable assigned):
// where arithmetic is a command's work ((( )), let, [[ -eq ]]) it fails that command only, said
// after the command's name unless `plain` (bash says a readonly variable without it).
export class ArithmeticError extends ExpansionError {
  constructor(
    message: string,
    readonly plain = false,
  ) {
    super(message, 1);
  }
}
