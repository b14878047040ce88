// The syntax tree of bash text, as src/shell/syntax/ parses it (read there). Every node has the byte offset, line
// and (character) column where it starts and ends, so that any refusal or report can point at it and
// give its source back (print.ts). Values of literal parts are bytes (source.ts), as bash holds them.
// The tree is only syntax: what a word expands to is src/shell/expand/'s business, how a command runs
// src/shell/interp/'s.

import type { ExtGlob, ParamExpOf, Pos, RedirectOp, Span } from './shell-tree-leaves.js';

export type { ParamOp, Pos, RedirectOp, Span } from './shell-tree-leaves.js';

export interface Script extends Span {
  kind: 'script';
  stmts: Stmt[];
  // bash's parser warnings ("here-document at line 1 delimited by end-of-file"): where, and the line said.
  warnings?: { offset: number; line: number; text: string }[];
}

// One command of a list, with how it ends: `&` runs it in the background.
export interface Stmt extends Span {
  kind: 'stmt';
  body: AndOr;
  background: boolean;
  // It holds an extended pattern (`@(a|b)`), read after a `shopt -s extglob` line (checked again when run).
  extglob?: boolean;
}

export interface AndOr extends Span {
  kind: 'and-or';
  first: Pipeline;
  rest: { op: '&&' | '||'; pipeline: Pipeline }[];
}

export interface Pipeline extends Span {
  kind: 'pipeline';
  // `!` before it (an odd number of them).
  bang: boolean;
  // `time` before it (`time -p`: timePosix).
  time: boolean;
  timePosix?: boolean;
  commands: Command[];
  // pipeAll[i]: command i is joined to the next by `|&` (its stderr too).
  pipeAll: boolean[];
}

export type Command = SimpleCommand | Compound | FunctionDef;

export interface SimpleCommand extends Span {
  kind: 'simple';
  assigns: Assign[];
  words: Word[];
  // In the order written (bash applies them left to right).
  redirects: Redirect[];
  // A declaration builtin's words (declare, export, local, readonly, typeset): the assignment or null.
  declArgs?: (Assign | null)[];
  // bash's line for it ($LINENO, messages) when not the one it starts on (commands.ts's readSimple).
  line?: number;
  // Inside a $( ): its line in the text bash printed back from it, 1 for the first (subst-lines.ts).
  substLine?: number;
}

export type Compound =
  | BraceGroup
  | Subshell
  | IfClause
  | WhileClause
  | ForClause
  | ArithFor
  | CaseClause
  | ArithCommand
  | CondCommand
  | SelectClause
  | Coproc;

interface CompoundBase extends Span {
  redirects: Redirect[];
}

interface BraceGroup extends CompoundBase {
  kind: 'brace';
  stmts: Stmt[];
}

interface Subshell extends CompoundBase {
  kind: 'subshell';
  stmts: Stmt[];
}

interface IfClause extends CompoundBase {
  kind: 'if';
  // `if c; then t; elif c2; then t2; else e; fi`: branches in order, else last (null: none).
  branches: { cond: Stmt[]; body: Stmt[] }[];
  otherwise: Stmt[] | null;
}

interface WhileClause extends CompoundBase {
  kind: 'while';
  until: boolean;
  cond: Stmt[];
  body: Stmt[];
}

interface ForClause extends CompoundBase {
  kind: 'for';
  name: string;
  namePos: Span;
  // null: no `in` ("$@").
  items: Word[] | null;
  body: Stmt[];
}

interface SelectClause extends CompoundBase {
  kind: 'select';
  name: string;
  items: Word[] | null;
  body: Stmt[];
}

interface ArithFor extends CompoundBase {
  kind: 'arith-for';
  // Each as arithmetic text (a word of arithmetic mode); null when empty.
  init: Word | null;
  cond: Word | null;
  step: Word | null;
  body: Stmt[];
}

export interface CaseItem extends Span {
  patterns: Word[];
  body: Stmt[];
  // ;; ends, ;& falls through to the next body, ;;& tests the next patterns.
  terminator: ';;' | ';&' | ';;&';
}

export interface CaseClause extends CompoundBase {
  kind: 'case';
  word: Word;
  items: CaseItem[];
}

interface ArithCommand extends CompoundBase {
  kind: 'arith';
  expr: Word;
}

interface CondCommand extends CompoundBase {
  kind: 'cond';
  expr: CondExpr;
}

interface Coproc extends CompoundBase {
  kind: 'coproc';
  name: string | null;
  body: Command;
}

export interface FunctionDef extends Span {
  kind: 'function';
  name: string;
  // `function f` (keyword) or `f()`.
  keyword: boolean;
  body: Compound;
}

export type CondExpr =
  | { kind: 'cond-not'; expr: CondExpr; start: Pos; end: Pos }
  | { kind: 'cond-and' | 'cond-or'; left: CondExpr; right: CondExpr; start: Pos; end: Pos }
  | { kind: 'cond-group'; expr: CondExpr; start: Pos; end: Pos }
  | { kind: 'cond-unary'; op: string; operand: Word; start: Pos; end: Pos }
  // For == != = the right side is a pattern; for =~ an extended regular expression.
  | { kind: 'cond-binary'; op: string; left: Word; right: Word; start: Pos; end: Pos }
  | { kind: 'cond-word'; word: Word; start: Pos; end: Pos };

export interface Assign extends Span {
  name: string;
  // NAME[subscript]=: the subscript as written (arithmetic for indexed arrays, a word for associative).
  index: Word | null;
  append: boolean;
  // NAME=value; null for an array assignment or a bare NAME (a declaration's argument).
  value: Word | null;
  // NAME=( ... ): each element, with its [key]= when written.
  array: ArrayElem[] | null;
}

export interface ArrayElem extends Span {
  index: Word | null;
  value: Word;
}

export interface Redirect extends Span {
  op: RedirectOp;
  // The descriptor written before the operator (2>), or null for the operator's default.
  fd: number | null;
  // {name}> : the variable that receives a new descriptor.
  fdVar: string | null;
  // The file, descriptor word or here-string; for a here-document, its delimiter word.
  target: Word;
  heredoc: Heredoc | null;
}

export interface Heredoc {
  // The delimiter after quote removal; any quote in it: the body is taken as written, no expansion.
  delimiter: string;
  quoted: boolean;
  // The body (for an unquoted delimiter, a word of here-document mode: $ ` and \ are active).
  body: Word;
  lines: number; // the body's, as bash prints them back in a $( ) (syntax/subst-lines.ts)
}

export interface Word extends Span {
  parts: WordPart[];
  // The text as written, for a word read where a command's word can be (brace expansion works on it).
  raw?: string;
}

export type WordPart =
  // Unquoted text as written, backslashes included (expansion removes them and knows what they quote).
  | { kind: 'lit'; value: string; start: Pos; end: Pos }
  | { kind: 'sq'; value: string; start: Pos; end: Pos }
  // $'...': the text between the quotes, escapes still written (decoded when expanded: \u depends
  // on the locale).
  | { kind: 'ansi'; raw: string; start: Pos; end: Pos }
  // "..." (or $"...", locale: true): its parts, where lit values keep their backslashes.
  | { kind: 'dq'; parts: WordPart[]; locale: boolean; start: Pos; end: Pos }
  | ParamExp
  | CmdSubst
  | ArithExp
  | ProcSubst
  | ExtGlob;

export interface CmdSubst extends Span {
  kind: 'cmdsubst';
  stmts: Stmt[];
  backquote: boolean;
}

interface ArithExp extends Span {
  kind: 'arith-exp';
  // The expression as a word of arithmetic mode ($ expansions and quote removal, then evaluation).
  expr: Word;
  // $[ ... ], the old form.
  bracket: boolean;
}

export interface ProcSubst extends Span {
  kind: 'procsubst';
  op: '<' | '>';
  stmts: Stmt[];
}

export type ParamExp = ParamExpOf<Word>;
