import { readCommand } from './commands.js';
import { readCompound } from './compound.js';
import { readDollar } from './dollar.js';
import { extglobAfter } from './extglob-lines.js';
import { readList } from './lists.js';
import type { Script, Stmt, Word } from './nodes.js';
import { readHeredocBody } from './redirects.js';
import { type NestedEnd, Scanner } from './scanner.js';
import { type Bytes, toBytes } from './source.js';
import { ShellSyntaxError } from './syntax-error.js';
import { readParts, readWord } from './words.js';

// Parses bash text (as Node gives it, or as bytes) into a tree. Throws ShellSyntaxError for text
// that bash itself rejects, with where; which constructs safe-run runs is decided later (check.ts).
// `extglob`: on where the text starts (an eval's or a sourced file's text, read while it is on).
// `firstLine`: the line the text's first line is numbered (eval's text and an ERR trap's action are
// numbered on from the command's line, as bash numbers them).
export function parseScript(text: string, { bytes = false, extglob = false, firstLine = 1 } = {}): Script {
  const source: Bytes = bytes ? text : toBytes(text);
  const s = newScanner(source, firstLine);
  s.extglob = extglob;
  s.lineRead = (line) => {
    s.extglob = extglobAfter(line, s.extglob);
  };
  checkControlCharacters(s);
  const stmts = readList(s, { words: [], top: true });
  if (!s.done) s.unexpected();
  const warnings = s.warnings.sort((a, b) => a.offset - b.offset);
  return {
    kind: 'script',
    stmts,
    start: s.pos(0),
    end: s.pos(),
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

function newScanner(source: Bytes, firstLine = 1): Scanner {
  const s = new Scanner(source, firstLine);
  s.grammar = { list: readList, command: readCommand, compound: readCompound, dollar: readDollar };
  s.parseNested = nested;
  s.readHeredoc = (doc) => readHeredocBody(s, doc);
  s.parseInner = (text, offset) => {
    const inner = s.sub(text, offset);
    inner.readHeredoc = (doc) => readHeredocBody(inner, doc);
    const stmts = readList(inner);
    if (!inner.done) inner.unexpected();
    return stmts;
  };
  return s;
}

// One word's text read again (a brace expansion's result): null when it is not exactly one word.
export function parseWordText(text: Bytes): Word | null {
  const s = newScanner(text);
  try {
    const word = readWord(s);
    return word && s.done ? word : null;
  } catch {
    return null;
  }
}

// A prompt string (PS4) as bash expands it before each trace line: $ and ` active, quotes kept as
// text, as in an unquoted here-document's body. Null when it does not parse.
export function parsePromptText(text: Bytes): Word | null {
  const s = newScanner(text);
  try {
    const parts = readParts(s, {
      stop: () => false,
      singleQuotes: false,
      doubleQuotes: false,
      braces: false,
    });
    return s.done ? { parts, start: s.pos(0), end: s.pos() } : null;
  } catch {
    return null;
  }
}

// The list of a $( ... ) or <( ... ): up to its closing parenthesis.
function nested(s: Scanner, end: NestedEnd): Stmt[] {
  return readList(s, { words: [], paren: end === ')' });
}

// Control characters other than tab and newline never reach a program or a report raw: a carriage
// return from a CRLF file would become part of the last argument, which nobody means.
function checkControlCharacters(s: Scanner): void {
  const at = s.text.search(/[\x00-\x08\x0b-\x1f\x7f]/);
  if (at < 0) return;
  const c = s.text[at]!;
  const name =
    c === '\r'
      ? 'carriage return (the text has CRLF line endings?)'
      : c === '\0'
        ? 'NUL character'
        : `control character \\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  const advice =
    c === '\r' ? 'remove the carriage returns (e.g. tr -d "\\r")' : 'remove it, or write it with printf';
  throw new ShellSyntaxError('syntax.control', `${name} at {at}; ${advice}`, s.pos(at), s.src.lineCount > 1);
}
