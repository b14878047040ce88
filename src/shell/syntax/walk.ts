import type { Command, CondExpr, Redirect, Stmt, Word, WordPart } from './nodes.js';

// What a walk meets: every command (simple, compound, function), every redirection, every word and
// every part of a word, nested command substitutions included, in source order.
interface Visitor {
  command?(command: Command): void;
  redirect?(redirect: Redirect): void;
  word?(word: Word): void;
  part?(part: WordPart): void;
}

export function walkStmts(stmts: readonly Stmt[], visit: Visitor): void {
  for (const stmt of stmts) {
    const { first, rest } = stmt.body;
    for (const pipeline of [first, ...rest.map((r) => r.pipeline)]) {
      for (const command of pipeline.commands) walkCommand(command, visit);
    }
  }
}

function walkCommand(command: Command, visit: Visitor): void {
  visit.command?.(command);
  if (command.kind === 'function') {
    walkCommand(command.body, visit);
    return;
  }
  for (const redirect of command.redirects) walkRedirect(redirect, visit);
  switch (command.kind) {
    case 'simple':
      for (const assign of command.assigns) walkAssign(assign, visit);
      for (const word of command.words) walkWord(word, visit);
      for (const assign of command.declArgs ?? []) if (assign) walkAssign(assign, visit);
      break;
    case 'brace':
    case 'subshell':
      walkStmts(command.stmts, visit);
      break;
    case 'if':
      for (const branch of command.branches) {
        walkStmts(branch.cond, visit);
        walkStmts(branch.body, visit);
      }
      if (command.otherwise) walkStmts(command.otherwise, visit);
      break;
    case 'while':
      walkStmts(command.cond, visit);
      walkStmts(command.body, visit);
      break;
    case 'for':
    case 'select':
      for (const word of command.items ?? []) walkWord(word, visit);
      walkStmts(command.body, visit);
      break;
    case 'arith-for':
      for (const word of [command.init, command.cond, command.step]) if (word) walkWord(word, visit);
      walkStmts(command.body, visit);
      break;
    case 'case':
      walkWord(command.word, visit);
      for (const item of command.items) {
        for (const pattern of item.patterns) walkWord(pattern, visit);
        walkStmts(item.body, visit);
      }
      break;
    case 'arith':
      walkWord(command.expr, visit);
      break;
    case 'cond':
      walkCond(command.expr, visit);
      break;
    default:
      walkCommand(command.body, visit);
  }
}

function walkAssign(
  assign: { index: Word | null; value: Word | null; array: { index: Word | null; value: Word }[] | null },
  visit: Visitor,
): void {
  if (assign.index) walkWord(assign.index, visit);
  if (assign.value) walkWord(assign.value, visit);
  for (const element of assign.array ?? []) {
    if (element.index) walkWord(element.index, visit);
    walkWord(element.value, visit);
  }
}

function walkRedirect(redirect: Redirect, visit: Visitor): void {
  visit.redirect?.(redirect);
  walkWord(redirect.target, visit);
  if (redirect.heredoc) walkWord(redirect.heredoc.body, visit);
}

function walkCond(expr: CondExpr, visit: Visitor): void {
  switch (expr.kind) {
    case 'cond-and':
    case 'cond-or':
      walkCond(expr.left, visit);
      walkCond(expr.right, visit);
      break;
    case 'cond-not':
    case 'cond-group':
      walkCond(expr.expr, visit);
      break;
    case 'cond-unary':
      walkWord(expr.operand, visit);
      break;
    case 'cond-binary':
      walkWord(expr.left, visit);
      walkWord(expr.right, visit);
      break;
    default:
      walkWord(expr.word, visit);
  }
}

export function walkWord(word: Word, visit: Visitor): void {
  visit.word?.(word);
  for (const part of word.parts) walkPart(part, visit);
}

function walkPart(part: WordPart, visit: Visitor): void {
  visit.part?.(part);
  switch (part.kind) {
    case 'dq':
      for (const inner of part.parts) walkPart(inner, visit);
      break;
    case 'cmdsubst':
    case 'procsubst':
      walkStmts(part.stmts, visit);
      break;
    case 'arith-exp':
      walkWord(part.expr, visit);
      break;
    case 'param':
      if (part.index) walkWord(part.index, visit);
      if (part.op) walkWord(part.op.word, visit);
      if (part.slice) {
        walkWord(part.slice.offset, visit);
        if (part.slice.length) walkWord(part.slice.length, visit);
      }
      if (part.replace) {
        walkWord(part.replace.pattern, visit);
        if (part.replace.with) walkWord(part.replace.with, visit);
      }
      break;
    default:
      break;
  }
}
