import type { CaseItem, Command, Redirect, SimpleCommand, Span, Stmt } from './nodes.js';
import type { Scanner } from './scanner.js';

// bash 5.2 runs a $( ) from the text it printed back when it parsed it, numbered on from the line of
// the command it is expanded for: one command a line where newlines separated them (blank lines and
// comments gone; `a;<newline>b`, `a &<newline>b` and a pipeline or && split over lines on one line),
// compound commands in a layout of bash's own (`if a; then` / body / `fi`, `for x in w;` / `do` /
// body / `done`). Each simple command in it gets its line in that text (substLine, 1 for the first).
// A here-document's body and delimiter follow its command's line, and what comes after starts on
// a fresh line; a function is `function f () ` / `{ ` / body / `}`, its body's commands a line each,
// a blank line where a newline separated them. A compound command with a here-document, in a
// function or a $( ) over several lines in a word is left as written.
type Marks = [SimpleCommand, number][];

export function markSubstLines(s: Scanner, stmts: readonly Stmt[]): void {
  const marks: Marks = [];
  if (printList(s, stmts, 1, marks) === null) return;
  for (const [command, at] of marks) command.substLine = at;
}

// Each function below: the commands printed from line `line` on, and the line the print ends on.
function printList(s: Scanner, stmts: readonly Stmt[], line: number, marks: Marks): number | null {
  let at: number | null = line;
  let previous: Stmt | null = null;
  for (const stmt of stmts) {
    if (previous && newlineBetween(s, previous, stmt)) at++;
    for (const pipeline of [stmt.body.first, ...stmt.body.rest.map((r) => r.pipeline)]) {
      for (const command of pipeline.commands) {
        at = printCommand(s, command, at, marks);
        if (at === null) return null;
      }
    }
    previous = stmt;
  }
  return at;
}

function newlineBetween(s: Scanner, a: Stmt, b: Stmt): boolean {
  const between = s.text.slice(s.local(a.end), s.local(b.start)).replace(/#[^\n]*/g, '');
  return !a.background && !between.includes(';') && !between.includes('&') && between.includes('\n');
}

function printCommand(s: Scanner, command: Command, line: number, marks: Marks): number | null {
  const heredocs =
    command.kind === 'function' ? [] : command.redirects.filter((redirect) => redirect.heredoc);
  if (heredocs.length > 0 && command.kind !== 'simple') return null;
  switch (command.kind) {
    case 'simple':
      return then(printSimple(s, command, line, marks), (end) => afterBodies(heredocs, end));
    case 'function':
      if (command.body.kind !== 'brace') return null;
      return then(printFunctionBody(s, command.body.stmts, line + 2, marks), (end) => end + 1);
    case 'brace':
    case 'subshell':
      return printList(s, command.stmts, line, marks);
    case 'if':
      return printIf(s, command.branches, command.otherwise, line, marks);
    case 'while':
      return then(printList(s, command.cond, line, marks), (end) => body(s, command.body, end + 1, marks));
    case 'for':
    case 'select':
    case 'arith-for':
      return body(s, command.body, line + 2, marks);
    case 'case':
      return printCase(s, command.items, line, marks);
    case 'arith':
    case 'cond':
      return line;
    default:
      return null;
  }
}

function hasHeredoc(command: Command): boolean {
  return command.kind !== 'function' && command.redirects.some((redirect) => redirect.heredoc);
}

// Each here-document's body and delimiter line after the command's last line; then a fresh line.
function afterBodies(heredocs: readonly Redirect[], end: number): number {
  let at = end;
  for (const { heredoc } of heredocs) {
    at += heredoc!.lines + 1;
  }
  return heredocs.length > 0 ? at + 1 : end;
}

// A function's body as bash prints it: simple commands (pipelines and && lists of them) a line
// each, one more line where a newline separated them.
function printFunctionBody(s: Scanner, stmts: readonly Stmt[], line: number, marks: Marks): number | null {
  let at: number | null = line;
  let previous: Stmt | null = null;
  for (const stmt of stmts) {
    if (stmt.background) return null;
    if (previous) at += newlineBetween(s, previous, stmt) ? 2 : 1;
    for (const pipeline of [stmt.body.first, ...stmt.body.rest.map((r) => r.pipeline)]) {
      for (const command of pipeline.commands) {
        if (command.kind !== 'simple' || hasHeredoc(command)) return null;
        at = printSimple(s, command, at, marks);
        if (at === null) return null;
      }
    }
    previous = stmt;
  }
  return at;
}

// A loop's body, then `done` on the line after it.
function body(s: Scanner, stmts: readonly Stmt[], line: number, marks: Marks): number | null {
  return then(printList(s, stmts, line, marks), (end) => end + 1);
}

function then(line: number | null, next: (line: number) => number | null): number | null {
  return line === null ? null : next(line);
}

// `elif` is printed as an `if` inside `else`: each branch adds an `else` line and a `fi` line.
function printIf(
  s: Scanner,
  branches: { cond: Stmt[]; body: Stmt[] }[],
  otherwise: Stmt[] | null,
  line: number,
  marks: Marks,
): number | null {
  let at: number | null = line;
  for (const [i, branch] of branches.entries()) {
    if (i > 0) at += 2;
    at = then(printList(s, branch.cond, at, marks), (end) => printList(s, branch.body, end + 1, marks));
    if (at === null) return null;
  }
  if (otherwise) at = printList(s, otherwise, at + 2, marks);
  return at === null ? null : at + branches.length;
}

// `case w in`, then per item its patterns on a line, its commands from the next, `;;` after them.
function printCase(s: Scanner, items: readonly CaseItem[], line: number, marks: Marks): number | null {
  let at: number | null = line;
  for (const item of items) {
    const patterns: number = at + 1;
    at = item.body.length === 0 ? patterns + 1 : printList(s, item.body, patterns + 1, marks);
    if (at === null) return null;
    at++;
  }
  return at + 1;
}

// A simple command on the line where bash's parser took its first element (the token after it for a
// word); it ends where its last element does. Assignments, words, then redirections, as printed.
function printSimple(s: Scanner, command: SimpleCommand, line: number, marks: Marks): number | null {
  const counts: number[] = [];
  const elements: Span[] = [...command.assigns, ...command.words, ...command.redirects];
  for (const element of elements) {
    const text = s.text.slice(s.local(element.start), s.local(element.end));
    const newlines = (text.match(/\n/g)?.length ?? 0) - (text.match(/\\\n/g)?.length ?? 0);
    if (newlines > 0 && text.includes('$(')) return null;
    counts.push(newlines);
  }
  const firstIsWord = command.assigns.length === 0 && command.words.length > 0;
  marks.push([command, line + sum(counts.slice(0, firstIsWord ? 2 : 1))]);
  return line + sum(counts);
}

function sum(counts: number[]): number {
  return counts.reduce((a, b) => a + b, 0);
}

// A backquoted command runs from its text as written (bash reads it only when it expands it): its
// simple commands are numbered from its first line on, that line being the one of the command the
// substitution is for.
export function markBackquoteLines(stmts: readonly Stmt[], firstLine: number): void {
  eachSimpleOf(stmts, (command) => {
    command.substLine = (command.line ?? command.start.line) - firstLine + 1;
  });
}

function eachSimpleOf(stmts: readonly Stmt[], visit: (command: SimpleCommand) => void): void {
  for (const stmt of stmts) {
    for (const pipeline of [stmt.body.first, ...stmt.body.rest.map((r) => r.pipeline)]) {
      for (const command of pipeline.commands) eachSimple(command, visit);
    }
  }
}

// The simple commands of a command, in the compound commands it holds too (not in its words).
function eachSimple(command: Command, visit: (command: SimpleCommand) => void): void {
  const lists: (readonly Stmt[])[] = [];
  switch (command.kind) {
    case 'simple':
      visit(command);
      return;
    case 'function':
    case 'coproc':
      eachSimple(command.body, visit);
      return;
    case 'brace':
    case 'subshell':
      lists.push(command.stmts);
      break;
    case 'if':
      for (const branch of command.branches) lists.push(branch.cond, branch.body);
      if (command.otherwise) lists.push(command.otherwise);
      break;
    case 'while':
      lists.push(command.cond, command.body);
      break;
    case 'for':
    case 'select':
    case 'arith-for':
      lists.push(command.body);
      break;
    case 'case':
      for (const item of command.items) lists.push(item.body);
      break;
    default:
      return;
  }
  for (const list of lists) eachSimpleOf(list, visit);
}
