import { BUILTIN_NAMES } from '../../model/bash-builtins.js';
import { ExpansionError } from '../expand/env.js';
import { VarError } from '../expand/vars.js';
import type { Assign, SimpleCommand } from '../syntax/nodes.js';
import type { Bytes } from '../syntax/source.js';
import type { RunnerApi } from './api.js';
import { assignInOrder, expandDeclaredArray } from './assignments.js';
import { noteInShell } from './background.js';
import { noteCommand } from './bash-command.js';
import { BUILTINS } from './builtins/registry.js';
import { runBuiltin } from './builtins/run-builtin.js';
import { runExternal } from './external.js';
import { recordStep, recordUnredirected } from './record-step.js';
import type { StepMarks } from './recorder.js';
import type { RedirectFailure } from './redirect-failure.js';
import { refuseStep } from './refuse-step.js';
import { ExitSignal } from './signals.js';
import { traceCommand, traceDeclared, traceDeclaredArrays } from './trace.js';

// A simple command, in bash's order: its words expanded, then its redirections, then its assignments;
// then a function, a builtin, or a program, looked up in that order.
export async function runSimple(r: RunnerApi, command: SimpleCommand): Promise<number> {
  // A process substitution of its words (`diff <(a) <(b)`) is held while it runs, then closed.
  const table = r.sh.fds;
  const mark = table.substitutions.length;
  try {
    return await runExpanded(r, command);
  } finally {
    table.closeSubstitutions(mark);
  }
}

async function runExpanded(r: RunnerApi, command: SimpleCommand): Promise<number> {
  const { sh } = r;
  sh.lineno = sh.lineOf(command);
  noteCommand(r, command);
  sh.substStatus = null;
  let expanded: { args: Bytes[]; decl: (Assign | null)[] | null };
  // The list's marks are this command's step's, not its substitutions'.
  const marks = r.rt.recorder.takeMarks();
  try {
    expanded = await expandArgs(r, command);
  } catch (error) {
    r.rt.recorder.marks = marks;
    if (error instanceof ExpansionError) return r.expansionFailed(error);
    throw error;
  }
  const { args, decl } = expanded;
  r.checkStopped(command);
  if (args.length === 0) return assignOnly(r, command, marks);
  if (command.assigns.length > 0) sh.vars.pushScope(true);
  try {
    try {
      await assignInOrder(r, command.assigns, { temporary: true });
    } catch (error) {
      r.rt.recorder.marks = marks;
      if (error instanceof VarError) {
        await r.error(error.message);
        return 1;
      }
      if (error instanceof ExpansionError) return r.expansionFailed(error);
      throw error;
    }
    r.checkStopped(command);
    r.rt.recorder.marks = marks;
    await traceDeclaredArrays(r, decl);
    await traceCommand(r, decl ? args.map((arg, i) => (decl[i]?.array ? decl[i].name : arg)) : args);
    await traceDeclared(r, args, decl);
    return await dispatch(r, command, args, decl, { functions: true });
  } finally {
    if (command.assigns.length > 0) sh.vars.popScope();
  }
}

// Runs expanded words: a function (unless told not to), a builtin, or a program, in that order.
export async function dispatch(
  r: RunnerApi,
  command: SimpleCommand,
  args: Bytes[],
  decl: (Assign | null)[] | null,
  { functions }: { functions: boolean },
): Promise<number> {
  try {
    return await dispatchTo(r, command, args, decl, functions);
  } finally {
    // $_: the last argument, once the command is done (inside it, $_ is still the one before).
    r.sh.lastArg = args.at(-1)!;
  }
}

async function dispatchTo(
  r: RunnerApi,
  command: SimpleCommand,
  args: Bytes[],
  decl: (Assign | null)[] | null,
  functions: boolean,
): Promise<number> {
  const name = args[0]!;
  if (functions && !name.includes('/') && r.sh.functions.has(name)) {
    noteInShell(r);
    const failed = recordUnredirected(r, command, name, 'shell function');
    return r.withRedirects(command.redirects, () => r.callFunction(name, args.slice(1)), failed);
  }
  if (!name.includes('/') && BUILTINS.has(name)) {
    noteInShell(r);
    return runBuiltin(r, command, args, decl);
  }
  // A name that only an expansion gave (`$C`) of a bash builtin safe-run does not run: bash would run
  // its builtin, never a program of that name.
  if (BUILTIN_NAMES.has(name))
    refuseStep(r, command, `runs builtin ${name}, which safe-run's interpreter does not run`);
  return runExternal(r, command, args);
}

// The words, with a declaration builtin's NAME=value arguments expanded as assignments (neither
// split nor globbed, ~ after = and :); an array argument NAME=( ... ) stays for the builtin.
async function expandArgs(
  r: RunnerApi,
  command: SimpleCommand,
): Promise<{ args: Bytes[]; decl: (Assign | null)[] | null }> {
  if (!command.declArgs) return { args: await r.ex.fields(command.words), decl: null };
  const args: Bytes[] = [];
  const decl: (Assign | null)[] = [];
  for (const [i, word] of command.words.entries()) {
    const assign = command.declArgs[i] ?? null;
    if (assign && assign.array === null && !(word.raw ?? '').includes('{')) {
      const value = assign.value ? await r.ex.value(assign.value, { assignment: true }) : '';
      const raw = word.raw ?? `${assign.name}=`;
      // (NAME[SUB]=: SUB expanded too, as bash expands the whole word.)
      const sub =
        assign.index && raw.includes('=') ? `[${await r.ex.value(assign.index, { subscript: true })}]` : null;
      const head =
        sub === null
          ? raw.slice(0, raw.indexOf('=') + 1)
          : `${assign.name}${sub}${assign.append ? '+=' : '='}`;
      args.push(`${head}${value}`);
      decl.push(assign);
    } else if (assign?.array) {
      await expandDeclaredArray(r, assign);
      args.push(`${assign.name}${assign.append ? '+=' : '='}`);
      decl.push(assign);
    } else {
      for (const field of await r.ex.fields([word])) {
        args.push(field);
        decl.push(null);
      }
    }
  }
  return { args, decl };
}

// NAME=value with no command: redirections are opened and closed, then the shell's own variables
// change. Its status is the last command substitution's, else 0; a read-only variable ends the shell.
async function assignOnly(r: RunnerApi, command: SimpleCommand, marks: StepMarks): Promise<number> {
  const { sh } = r;
  noteInShell(r);
  sh.lastArg = '';
  let failure: RedirectFailure | null = null;
  const redirected = await r.withRedirects(
    command.redirects,
    async () => 0,
    (failed) => {
      failure = failed;
    },
  );
  try {
    await assignInOrder(r, command.assigns);
  } catch (error) {
    r.rt.recorder.marks = marks;
    if (error instanceof ExpansionError) return r.expansionFailed(error);
    if (!(error instanceof VarError)) throw error;
    await r.error(error.message);
    // bash drops the rest of the line (a readonly variable assigned), and ends the text under set -e.
    throw new ExitSignal(1, 'error', { line: r.sh.lineno, message: error.message }, true);
  }
  // (Its own redirection's stop is its step's: recorded below.)
  if (failure === null) r.checkStopped(command);
  const status = redirected !== 0 ? redirected : (sh.substStatus ?? 0);
  r.rt.recorder.marks = marks;
  await recordStep(r, command, {
    status,
    stages: [],
    failure,
    builtin: 'assignment',
    argv: command.assigns.map((a) => `${a.name}=`),
  });
  return status;
}

// A command node for words run without one of their own (command NAME ..., a pipeline's element).
export function bareCommand(line: number): SimpleCommand {
  const pos = { offset: 0, line, col: 1 };
  return { kind: 'simple', assigns: [], words: [], redirects: [], start: pos, end: pos };
}
