import type { Redirect, RedirectOp, Word } from './nodes.js';
import type { PendingHeredoc, Scanner } from './scanner.js';
import { readParts, readWord } from './words.js';

const REDIRECT_AT = /^([0-9]+|\{[A-Za-z_][A-Za-z0-9_]*\})?(<<<|<<-|<<|<>|<&|>>|>\||>&|&>>|&>|<|>)/;

// Whether a redirection starts at the cursor (not a process substitution <( or >( ).
export function atRedirect(s: Scanner): boolean {
  const match = REDIRECT_AT.exec(s.text.slice(s.i, s.i + 80));
  if (!match) return false;
  if (match[1] && match[2]!.startsWith('&')) return false;
  const after = s.text[s.i + match[0].length];
  return !((match[2] === '<' || match[2] === '>') && !match[1] && after === '(');
}

// One redirection at the cursor (atRedirect said so).
export function readRedirect(s: Scanner): Redirect {
  const open = s.i;
  const match = REDIRECT_AT.exec(s.text.slice(s.i, s.i + 80))!;
  const prefix = match[1] ?? '';
  const op = match[2] as RedirectOp;
  s.i += match[0].length;
  s.skipBlanks(false);
  const target = readWord(s);
  if (!target) s.unexpected();
  const redirect: Redirect = {
    op,
    fd: prefix !== '' && !prefix.startsWith('{') ? Number(prefix) : null,
    fdVar: prefix.startsWith('{') ? prefix.slice(1, -1) : null,
    target,
    heredoc: null,
    start: s.pos(open),
    end: s.pos(),
  };
  if (op === '<<' || op === '<<-') {
    const { delimiter, quoted } = heredocDelimiter(s.text.slice(s.local(target.start), s.local(target.end)));
    redirect.heredoc = { delimiter, quoted, body: { parts: [], start: s.pos(), end: s.pos() }, lines: 0 };
    s.pending.push({ heredoc: redirect.heredoc, stripTabs: op === '<<-', at: open });
  }
  return redirect;
}

// The delimiter word after << as bash reads it: any quote or backslash in it means a literal body;
// the delimiter is the word after quote removal.
function heredocDelimiter(raw: string): { delimiter: string; quoted: boolean } {
  const quoted = /['"\\]/.test(raw);
  let delimiter = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === "'") {
      const close = raw.indexOf("'", i + 1);
      delimiter += raw.slice(i + 1, close < 0 ? raw.length : close);
      i = close < 0 ? raw.length : close;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < raw.length && raw[j] !== '"'; j++) {
        if (raw[j] === '\\' && '$`"\\'.includes(raw[j + 1] ?? '')) j++;
        delimiter += raw[j];
      }
      i = j;
    } else if (c === '\\') {
      i++;
      delimiter += raw[i] ?? '';
    } else if (c === '$' && (raw[i + 1] === "'" || raw[i + 1] === '"')) {
      // bash keeps $'...' and $"..." delimiters as their text without the $ (a quoted delimiter).
    } else delimiter += c;
  }
  return { delimiter, quoted };
}

// Reads a here-document's body from the cursor (the start of the line after its `<<`) up to the line
// that is its delimiter; the cursor ends after that line. A quoted delimiter keeps the body as
// written; otherwise the body is a word where $, ` and \ are active (and <<- strips leading tabs).
export function readHeredocBody(s: Scanner, doc: PendingHeredoc): void {
  const { heredoc, stripTabs } = doc;
  const start = s.i;
  let text = '';
  let i = start;
  let terminated = false;
  let lastLine = -1;
  // (bash names the line its parser was on when the body began: the one before the body's first.)
  const before = s.text[start - 1] === '\n' ? s.pos(start).line - 1 : s.pos(start).line;
  const wanted = `here-document at line ${before} delimited by end-of-file (wanted \`${heredoc.delimiter}')`;
  while (i < s.src.length) {
    let end = s.text.indexOf('\n', i);
    if (end < 0) end = s.src.length;
    let line = s.text.slice(i, end);
    if (stripTabs) line = line.replace(/^\t+/, '');
    // Unquoted, a line that ends in an unescaped \ goes on on the next one, and the delimiter is looked
    // for in the joined line (bash reads the body's lines without their backslash-newlines).
    let written = line;
    while (!heredoc.quoted && /(^|[^\\])(\\\\)*\\$/.test(line) && end < s.src.length) {
      let after = s.text.indexOf('\n', end + 1);
      if (after < 0) after = s.src.length;
      const more = s.text.slice(end + 1, after);
      line = line.slice(0, -1) + more;
      written += `\n${more}`;
      end = after;
    }
    const next = Math.min(end + 1, s.src.length);
    if (line === heredoc.delimiter) {
      terminated = true;
      i = next;
      break;
    }
    // In a $( ), bash also ends the body at a line that starts with the delimiter and holds a `)`
    // anywhere after it (`EOF )`): the rest of that line is read on as the text after the body.
    if (s.inSubst > 0 && line.startsWith(heredoc.delimiter) && line.includes(')', heredoc.delimiter.length)) {
      i = end - line.length + heredoc.delimiter.length;
      s.warn(wanted, s.pos(i).line);
      terminated = true;
      break;
    }
    text += `${written}\n`;
    lastLine = i;
    i = next;
  }
  if (!terminated) s.warn(wanted, lastLine < 0 ? before : s.pos(lastLine).line);
  if (!terminated && heredoc.delimiter !== '' && text === '') text = '';
  heredoc.body = bodyWord(s, text, start, heredoc.quoted);
  heredoc.lines = text.split('\n').length - 1;
  s.i = i;
}

function bodyWord(s: Scanner, text: string, at: number, quoted: boolean): Word {
  const start = s.pos(at);
  if (quoted || !/[$`\\]/.test(text)) {
    return { parts: text === '' ? [] : [{ kind: 'sq', value: text, start, end: start }], start, end: start };
  }
  const inner = s.sub(text, at);
  // A here-document started in the body (inside a $( )) has its own body further down this text.
  inner.readHeredoc = (doc) => readHeredocBody(inner, doc);
  const parts = readParts(inner, {
    stop: () => false,
    singleQuotes: false,
    doubleQuotes: false,
    braces: false,
  });
  return { parts, start, end: s.pos(at + text.length) };
}
