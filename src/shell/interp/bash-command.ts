import type { Command, FunctionDef } from '../syntax/nodes.js';
import type { Bytes } from '../syntax/source.js';
import type { RunnerApi } from './api.js';
import { commandText } from './command-text.js';
import { errTrapSet } from './err-trap.js';
import { ExitSignal } from './signals.js';

// bash's BASH_COMMAND is set as a simple command, `(( ))` or `[[ ]]` starts (in a pipeline, by the
// shell for each element in turn, before it forks), and as a subshell starts while an ERR trap is
// set; never while a trap runs, so a trap reads the command it came after. It is printed when read.
export function noteCommand(r: RunnerApi, command: Command): void {
  const { sh } = r;
  if (sh.runningTrap > 0) return;
  if (command.kind === 'subshell' ? !errTrapSet(sh) : !PRINTED.has(command.kind)) return;
  const source = r.place.source;
  sh.lastCommand = () => commandText(source, command);
}

const PRINTED = new Set<Command['kind']>(['simple', 'arith', 'cond']);

// An element of a pipeline as the shell starts it: a simple command's line (or a subshell's, the
// line it ends on) is the shell's $LINENO from then on, for an ERR trap after the pipeline too.
export function noteElement(r: RunnerApi, command: Command): void {
  if (command.kind === 'simple') r.sh.lineno = r.sh.lineOf(command);
  if (command.kind === 'subshell') r.sh.lineno = command.end.line;
  noteCommand(r, command);
}

// $BASH_COMMAND: empty before any command; a form safe-run does not print as bash does is refused.
export function bashCommand(r: RunnerApi): Bytes {
  const seen = r.sh.lastCommand;
  const printed = seen === null ? '' : seen();
  if (printed !== null) return printed;
  const why =
    "$BASH_COMMAND names a command that safe-run cannot print as bash does ($'\\u...', a compound command in a $( ), a line continuation)";
  void r.error(why);
  r.rt.stoppedBy = { kind: 'refused', why };
  throw new ExitSignal(125, 'stopped');
}

// The text each function was defined in (an eval's, a sourced file's): its commands' places are
// offsets into it, wherever it is called from.
const definedIn = new WeakMap<FunctionDef, Bytes>();

export function noteDefinition(r: RunnerApi, fn: FunctionDef): void {
  definedIn.set(fn, r.place.source);
}

export function definitionText(fn: FunctionDef | undefined): Bytes | undefined {
  return fn && definedIn.get(fn);
}
