import type { FunctionDef, SimpleCommand } from '../syntax/nodes.js';
import type { Bytes } from '../syntax/source.js';
import { FdTable } from './fds.js';
import { HashTable } from './hash-table.js';
import { type Job, Jobs } from './jobs-table.js';
import { WatchedVariables } from './watched-variables.js';

// set -o options, by their long names, with the letter $- shows them by (bash's order).
export const OPTION_LETTERS: [string, string][] = [
  ['allexport', 'a'],
  ['errexit', 'e'],
  ['noglob', 'f'],
  ['hashall', 'h'],
  ['keyword', 'k'],
  ['monitor', 'm'],
  ['noexec', 'n'],
  ['nounset', 'u'],
  ['verbose', 'v'],
  ['xtrace', 'x'],
  ['braceexpand', 'B'],
  ['noclobber', 'C'],
  ['errtrace', 'E'],
  ['histexpand', 'H'],
  ['physical', 'P'],
  ['functrace', 'T'],
];

export const OPTION_NAMES = [
  'allexport',
  'braceexpand',
  'emacs',
  'errexit',
  'errtrace',
  'functrace',
  'hashall',
  'histexpand',
  'history',
  'ignoreeof',
  'interactive-comments',
  'keyword',
  'monitor',
  'noclobber',
  'noexec',
  'noglob',
  'nolog',
  'notify',
  'nounset',
  'onecmd',
  'physical',
  'pipefail',
  'posix',
  'privileged',
  'verbose',
  'vi',
  'xtrace',
];

// The shell's own state: what a subshell copies and a function call shares.
export class Shell {
  vars = new WatchedVariables();
  functions = new Map<string, FunctionDef>();
  aliases = new Map<string, Bytes>();
  // bash's table of programs found on PATH (hash): per name, its path and how often it ran so.
  hashed = new HashTable();
  positional: Bytes[] = [];
  // How many times `set` gave new positional parameters (a sourced file's `set --` outlives it).
  positionalSets = 0;
  // The shell's own variables as it started (IFS, PS4...): a session keeps them only when changed.
  defaults = new Map<string, Bytes>();
  arg0: Bytes = 'bash';
  options = new Set<string>(['braceexpand', 'hashall', 'interactive-comments']);
  shopts = new Set<string>([
    'checkwinsize',
    'cmdhist',
    'complete_fullquote',
    'extquote',
    'force_fignore',
    'globasciiranges',
    'globskipdots',
    'hostcomplete',
    'interactive_comments',
    'patsub_replacement',
    'progcomp',
    'promptvars',
    'sourcepath',
  ]);
  // The logical working directory ($PWD as bash keeps it), and the directories pushd saved.
  cwd = '/';
  dirStack: Bytes[] = [];
  status = 0;
  pipestatus: number[] = [];
  lastArg: Bytes = '';
  lastBackground: number | null = null;
  // The jobs this shell started (wait, jobs, %N); a subshell's are its own. A simple command of a
  // pipeline and a command substitution still list their parent's with `jobs` (seenJobs), as bash's.
  jobs = new Jobs();
  seenJobs: readonly Job[] = [];
  traps = new Map<string, Bytes>();
  fds = new FdTable();
  // Nesting: functions called, loops, subshells ($BASH_SUBSHELL).
  funcNames: string[] = [];
  // bash's FUNCNAME, innermost first: each function called and each sourced file (`source`), then
  // `main` for a script file (none for -c text); seen only while a function runs.
  callStack: string[] = [];
  // bash's BASH_SOURCE, innermost first: the file each function running was defined in (a -c
  // text's own: "environment") and each sourced file; a script file's name at the bottom.
  sources: Bytes[] = [];
  // bash's BASH_LINENO, beside BASH_SOURCE: the line each call and `source` was made from (0: main).
  sourceLines: number[] = [];
  functionSources = new Map<string, Bytes>();
  // The set options `local -` saved in the function running now, put back when it returns.
  localOptions: ReadonlySet<string> | null = null;
  loopDepth = 0;
  // The pass of each loop around the command running now, outermost first (for the report).
  iterations: number[] = [];
  subshell = 0;
  // A subshell that runs one simple command as bash's forked child does (`cmd &`): a failed
  // expansion ends it with bash -c's status (127 for an unset parameter), not a subshell's 1.
  bareCommand = false;
  // set -x: PS4's first character is repeated once more inside each command substitution, eval,
  // source and trap (not the EXIT trap, nor a plain subshell), as bash's indirection level.
  traceDepth = 0;
  // BASH_XTRACEFD's descriptor while it is the trace's (xtrace-fd.ts); null: stderr.
  xtraceFd: number | null = null;
  // The EXIT trap adds no level in the shell itself and a command substitution, one in a subshell.
  exitTrapDeeper = false;
  // Run from a script file (--script), not as a -c text.
  file = false;
  // While the EXIT trap runs: the status it began with, which a bare `exit` in it gives.
  exitTrapStatus: number | null = null;
  // Greater than 0 while errexit does not apply (an if or while condition, a && or || operand, !).
  errexitIgnored = 0;
  lineno = 0;
  // bash's BASH_COMMAND: the last command started outside a trap, printed when read (bash-command.ts).
  lastCommand: (() => Bytes | null) | null = null;
  // Greater than 0 while a trap's action runs.
  runningTrap = 0;
  // In a command substitution: the line before the one its first line is numbered (lineOf).
  substBase: number | null = null;
  // The status of the last command substitution of the command being expanded (for `x=$(false)`).
  substStatus: number | null = null;
  // How deep in `source` the shell is (return ends a sourced file).
  sourceDepth = 0;
  // getopts' place: the argument it reads next and the position inside a group of letters.
  getopts = { optind: 1, char: 0 };

  option(name: string): boolean {
    return this.options.has(name);
  }

  setOption(name: string, on: boolean): void {
    if (on) this.options.add(name);
    else this.options.delete(name);
  }

  // A function defined now: where from, as bash's BASH_SOURCE tells it when the function runs.
  define(fn: FunctionDef): void {
    this.functions.set(fn.name, fn);
    this.functionSources.set(fn.name, this.sources[0] ?? 'environment');
  }

  // The name bash's messages begin with: the file running now (BASH_SOURCE[0]), else $0.
  messageName(): Bytes {
    return this.sources[0] || this.arg0;
  }

  // The line bash numbers a simple command by: in a $( ) bash printed back, its line there counted on
  // from the command the substitution was expanded for; else its own (SimpleCommand.line).
  lineOf(command: SimpleCommand): number {
    if (command.substLine !== undefined && this.substBase !== null) return this.substBase + command.substLine;
    return command.line ?? command.start.line;
  }

  // ${FUNCNAME[@]}: empty outside functions.
  funcNameArray(): Bytes[] {
    return this.funcNames.length === 0 ? [] : this.callStack;
  }

  // $-
  flags(): Bytes {
    let out = '';
    for (const [name, letter] of OPTION_LETTERS) if (this.options.has(name)) out += letter;
    return this.file ? out : `${out}c`;
  }

  // A fatal expansion error (an unset parameter under set -u, ${x:?}) ends bash -c's own shell (and a
  // lone simple command run with &) with 127, but with 1 under errexit, in a subshell, or in a script
  // file's shell.
  fatalStatus(status: number): number {
    const own = !this.file && !this.option('errexit') && (this.subshell === 0 || this.bareCommand);
    return status === 127 && !own ? 1 : status;
  }

  // A subshell: a copy of everything, which it may change without the parent seeing it. Traps other
  // than ignored ones are reset, as in bash.
  // (A subshell that still lists its parent's jobs: seeJobsOf.)
  subshellCopy(): Shell {
    const copy = new Shell();
    copy.vars = this.vars.clone();
    copy.functions = new Map(this.functions);
    copy.aliases = new Map(this.aliases);
    copy.hashed = this.hashed.copy();
    copy.positional = [...this.positional];
    copy.arg0 = this.arg0;
    copy.options = new Set(this.options);
    copy.shopts = new Set(this.shopts);
    copy.cwd = this.cwd;
    copy.dirStack = [...this.dirStack];
    copy.status = this.status;
    copy.pipestatus = [...this.pipestatus];
    copy.lastArg = this.lastArg;
    copy.lastBackground = this.lastBackground;
    // (set -E: the ERR trap too.)
    for (const [signal, action] of this.traps)
      if (action === '' || (signal === 'ERR' && this.option('errtrace'))) copy.traps.set(signal, action);
    copy.fds = this.fds.copy();
    copy.funcNames = [...this.funcNames];
    copy.callStack = [...this.callStack];
    copy.sources = [...this.sources];
    copy.sourceLines = [...this.sourceLines];
    copy.functionSources = new Map(this.functionSources);
    copy.subshell = this.subshell + 1;
    copy.traceDepth = this.traceDepth;
    copy.xtraceFd = this.xtraceFd;
    copy.exitTrapDeeper = true;
    copy.file = this.file;
    // (A subshell's bare `exit` gives $?; a command substitution keeps its EXIT trap's: substitution.ts.)
    copy.exitTrapStatus = null;
    copy.loopDepth = this.loopDepth;
    copy.iterations = [...this.iterations];
    copy.errexitIgnored = this.errexitIgnored;
    copy.lineno = this.lineno;
    copy.lastCommand = this.lastCommand;
    copy.runningTrap = this.runningTrap;
    copy.substBase = this.substBase;
    copy.sourceDepth = this.sourceDepth;
    copy.getopts = { ...this.getopts };
    return copy;
  }

  // This subshell lists the jobs of the shell it was copied from (and those it listed) with `jobs`.
  seeJobsOf(parent: Shell): void {
    this.seenJobs = [...parent.seenJobs, ...parent.jobs.list];
  }
}
