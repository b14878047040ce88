import { RESERVED_WORDS } from '../../model/bash-reserved-words.js';
import type { RequestErrorCode } from '../../types.js';
import type { Command, Compound, FunctionDef, Heredoc, Pos, Stmt, WordPart } from './nodes.js';
import { type Bytes, Source } from './source.js';
import { ShellSyntaxError } from './syntax-error.js';

// A here-document whose body starts after the end of the line that holds its `<<`.
export interface PendingHeredoc {
  heredoc: Heredoc;
  stripTabs: boolean;
  at: number;
}

// Where a nested list ends: the closing text of the construct that holds it (`)` of `$(`, the
// closing backquote's end of text).
export type NestedEnd = ')' | 'end';

// Where a list ends: reserved words that close the construct holding it, `)` (a subshell or a
// command substitution), `;;` (a case item), or only the end of the text.
export interface ListEnd {
  words: readonly string[];
  // The text's own list: bash reads it line by line, each line run before the next is read.
  top?: boolean;
  paren?: boolean;
  caseItem?: boolean;
}

// The grammar's recursive entry points, wired by parse.ts: the grammar is recursive, and each of its
// files reaches the others through these instead of importing them in a cycle.
interface Grammar {
  list(s: Scanner, end?: ListEnd): Stmt[];
  command(s: Scanner): Command | null;
  compound(s: Scanner, word: string): Compound | FunctionDef;
  // An expansion starting with `$` at the cursor (null: a literal `$`); `quoted` inside "...".
  dollar(s: Scanner, quoted: boolean): WordPart | null;
}

// The parser's cursor over the text, and what its parts share: pending here-documents, the nested
// parser of lists (set by parse.ts, so that words can hold command substitutions without an import
// cycle between the grammar's files), and bash's syntax errors.
export class Scanner {
  readonly src: Source;
  i = 0;
  pending: PendingHeredoc[] = [];
  // Set by parse.ts: parses a list of statements up to `end`, leaving the cursor on it.
  parseNested: (scanner: Scanner, end: NestedEnd) => Stmt[] = () => [];
  grammar!: Grammar;
  // Set by parse.ts: parses the text of a backquote substitution (unescaped), found at `offset`.
  parseInner: (text: Bytes, offset: number) => Stmt[] = () => [];
  // Nesting depth of [[ ]] (its words read < > ( ) differently) and of $( ) (a `)` ends them).
  inCond = 0;
  // Extended patterns (`@(a|b)`, `!(x)`) are read as words: after a line that turns extglob on, or
  // (extPattern) on the right of == != = in [[ ]], where bash always reads them. extglobRead counts
  // those read only because extglob is on.
  extglob = false;
  extPattern = 0;
  extglobRead = 0;
  // Inside how many $( ) (a here-document there also ends at a line that starts with its delimiter
  // and holds a `)`, as in bash).
  inSubst = 0;
  // bash's parser warnings, kept by the scanner of the whole text (parse.ts puts them on the script).
  warnings: { offset: number; line: number; text: string }[] = [];
  // Reading the arguments of `let`: in NAME=(...) the parentheses are the word's (bash reads them so).
  letArgs = false;

  // A scanner over text that is not the source itself (a backquote's unescaped text, a here-document
  // body without its tabs): its positions are those of `base` bytes on in the enclosing text.
  private outer: { scanner: Scanner; base: number } | null = null;

  constructor(text: Bytes, firstLine = 1) {
    this.src = new Source(text, firstLine);
  }

  sub(text: Bytes, base: number): Scanner {
    const inner = new Scanner(text);
    inner.outer = { scanner: this, base };
    inner.parseNested = this.parseNested;
    inner.parseInner = this.parseInner;
    inner.readHeredoc = this.readHeredoc;
    inner.grammar = this.grammar;
    inner.inCond = this.inCond;
    inner.inSubst = this.inSubst;
    inner.extglob = this.extglob;
    inner.extPattern = this.extPattern;
    return inner;
  }

  get text(): Bytes {
    return this.src.text;
  }

  get done(): boolean {
    return this.i >= this.src.length;
  }

  // The character at the cursor (or `ahead` after it), '' at the end.
  peek(ahead = 0): string {
    return this.src.text[this.i + ahead] ?? '';
  }

  at(text: string): boolean {
    return this.src.text.startsWith(text, this.i);
  }

  // The offset in this scanner's own text of a position it made: pos() gives those of the enclosing
  // text, so a word read from a here-document's body or a backquote's text is sliced here with this.
  local(at: Pos): number {
    return this.outer ? this.outer.scanner.local(at) - this.outer.base : at.offset;
  }

  pos(offset = this.i): Pos {
    if (this.outer) {
      const { scanner, base } = this.outer;
      return scanner.pos(Math.min(base + offset, scanner.src.length));
    }
    return this.src.pos(offset);
  }

  // Blanks and line continuations; comments when `comments` (where a word could start).
  skipBlanks(comments = true): void {
    const t = this.src.text;
    for (;;) {
      const c = t[this.i];
      if (c === ' ' || c === '\t') this.i++;
      else if (c === '\\' && t[this.i + 1] === '\n') this.i += 2;
      else if (c === '#' && comments) while (this.i < t.length && t[this.i] !== '\n') this.i++;
      else return;
    }
  }

  // Blanks, comments and newlines (after `|`, `&&`, `||`, and between commands of a compound);
  // each newline reads the here-document bodies that wait for it.
  skipNewlines(): void {
    for (;;) {
      this.skipBlanks();
      if (this.peek() !== '\n') return;
      this.newline();
    }
  }

  // Consumes one newline and reads the bodies of the here-documents started on its line.
  newline(): void {
    this.i++;
    const waiting = this.pending;
    this.pending = [];
    for (const doc of waiting) this.readHeredoc(doc);
  }

  // Set by parse.ts: what a line of the text's own list changes for the lines after it (extglob).
  lineRead: (stmts: Stmt[]) => void = () => {};

  // Set by parse.ts (the body of an unquoted here-document is a word).
  readHeredoc: (doc: PendingHeredoc) => void = () => {};

  // A warning bash's parser writes when it reads this point (said once, however often it is read).
  warn(text: string, line: number): void {
    const top = this.root();
    const offset = this.pos().offset;
    if (!top.warnings.some((w) => w.offset === offset && w.text === text))
      top.warnings.push({ offset, line, text });
  }

  private root(): Scanner {
    return this.outer ? this.outer.scanner.root() : this;
  }

  fail(offset: number, what: string, code: RequestErrorCode = 'syntax.unexpected'): never {
    const top = this.outer ? this.outer.scanner : this;
    throw new ShellSyntaxError(code, what, this.pos(offset), top.src.lineCount > 1);
  }

  // bash's "syntax error near unexpected token": the token at the cursor.
  unexpected(offset = this.i): never {
    return this.fail(offset, describeToken(this.src.text, offset));
  }
}

const OPERATORS = [
  ';;&',
  ';;',
  ';&',
  '&&',
  '||',
  '|&',
  '<<<',
  '<<-',
  '<<',
  '<>',
  '<&',
  '>&',
  '>>',
  '>|',
  '&>>',
  '&>',
];

// What bash would call the token at `offset`, for "unexpected ...".
function describeToken(text: Bytes, offset: number): string {
  if (offset >= text.length) return 'end of text';
  const op = OPERATORS.find((o) => text.startsWith(o, offset));
  if (op) return `"${op}"`;
  const c = text[offset]!;
  if (c === '\n') return 'end of line';
  if ('|&;()<>'.includes(c)) return `"${c}"`;
  let end = offset;
  while (end < text.length && !' \t\n|&;()<>'.includes(text[end]!)) end++;
  return `"${text.slice(offset, end)}"`;
}

export function isMetaChar(c: string): boolean {
  return c === '' || c === ' ' || c === '\t' || c === '\n' || '|&;()<>'.includes(c);
}

export function isName(text: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(text);
}

// The reserved word at the cursor, where a command starts: the word written plainly and ending where a
// word ends. Null for anything else.
export function reservedAt(s: Scanner): string | null {
  const rest = s.text.slice(s.i, s.i + 9);
  const word = /^(?:[a-z]+|\{|\}|!|\[\[|\]\])/.exec(rest)?.[0];
  if (!word || !RESERVED_WORDS.has(word)) return null;
  const after = rest[word.length] ?? '';
  return isMetaChar(after) ? word : null;
}
