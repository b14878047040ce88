import type { AndOr, Command, Pipeline, Stmt } from './nodes.js';
import { type ListEnd, reservedAt, type Scanner } from './scanner.js';

const NOTHING: ListEnd = { words: [] };

// A list of statements separated by `;`, `&` or newlines, up to `end` (left under the cursor).
export function readList(s: Scanner, end: ListEnd = NOTHING): Stmt[] {
  const stmts: Stmt[] = [];
  // The text's own list: the statements of the line being read (bash reads a line, then runs it).
  let line: Stmt[] = [];
  for (;;) {
    s.skipNewlines();
    if (s.done || atEnd(s, end)) break;
    if (end.top && line.length > 0 && s.pos().line > line.at(-1)!.end.line) {
      s.lineRead(line);
      line = [];
    }
    const extglobs = s.extglobRead;
    const stmt = readStmt(s);
    stmts.push(stmt);
    if (end.top) {
      if (s.extglobRead !== extglobs) stmt.extglob = true;
      line.push(stmt);
    }
    s.skipBlanks();
    const c = s.peek();
    if (c === '&' && s.peek(1) !== '&' && s.peek(1) !== '>') {
      stmt.background = true;
      s.i++;
      stmt.end = s.pos();
    } else if (c === ';' && s.peek(1) !== ';' && s.peek(1) !== '&') {
      s.i++;
      s.skipBlanks();
      if (s.peek() === ';' && !(end.caseItem && s.at(';;'))) s.unexpected();
    } else if (c === '\n') {
      s.newline();
    } else if (c === '' || atEnd(s, end)) {
      break;
    } else s.unexpected();
  }
  if (s.done && s.pending.length > 0) s.newline();
  return stmts;
}

function atEnd(s: Scanner, end: ListEnd): boolean {
  if (end.paren && s.peek() === ')') return true;
  if (end.caseItem && (s.at(';;') || s.at(';&'))) return true;
  const word = reservedAt(s);
  return word !== null && end.words.includes(word);
}

function readStmt(s: Scanner): Stmt {
  const body = readAndOr(s);
  return { kind: 'stmt', body, background: false, start: body.start, end: body.end };
}

function readAndOr(s: Scanner): AndOr {
  const first = readPipeline(s);
  const rest: AndOr['rest'] = [];
  for (;;) {
    s.skipBlanks();
    const op = s.at('&&') ? '&&' : s.at('||') ? '||' : null;
    if (!op) break;
    s.i += 2;
    s.skipNewlines();
    if (s.done) s.unexpected();
    rest.push({ op, pipeline: readPipeline(s) });
  }
  const last = rest.at(-1)?.pipeline ?? first;
  return { kind: 'and-or', first, rest, start: first.start, end: last.end };
}

function readPipeline(s: Scanner): Pipeline {
  s.skipBlanks();
  const start = s.pos();
  let bang = false;
  let time = false;
  let timePosix = false;
  let prefixed = false;
  for (;;) {
    const word = reservedAt(s);
    if (word === '!' || word === 'time') prefixed = true;
    if (word === '!') {
      bang = !bang;
      s.i++;
    } else if (word === 'time' && !time) {
      time = true;
      s.i += 4;
      s.skipBlanks();
      if (s.at('-p') && /[ \t\n;&|]|^$/.test(s.peek(2))) {
        s.i += 2;
        timePosix = true;
      }
    } else break;
    s.skipBlanks();
  }
  // `!` or `time` with nothing after it before the end of the list is a pipeline of no command (bash
  // takes `true && ! ;` and gives $? = 1).
  const bare = prefixed && (s.done || s.peek() === '\n' || (s.peek() === ';' && !s.at(';;')));
  const timing = timePosix ? { time, timePosix } : { time };
  if (bare) return { kind: 'pipeline', bang, ...timing, commands: [], pipeAll: [], start, end: start };
  const commands: Command[] = [readCommandOrFail(s)];
  const pipeAll: boolean[] = [];
  for (;;) {
    s.skipBlanks();
    if (s.peek() !== '|' || s.at('||')) break;
    pipeAll.push(s.at('|&'));
    s.i += s.at('|&') ? 2 : 1;
    s.skipNewlines();
    commands.push(readCommandOrFail(s));
  }
  return { kind: 'pipeline', bang, ...timing, commands, pipeAll, start, end: commands.at(-1)!.end };
}

function readCommandOrFail(s: Scanner): Command {
  const command = s.grammar.command(s);
  if (!command) s.unexpected();
  return command;
}
