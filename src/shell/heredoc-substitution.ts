import type { SourceText } from './source-text.js';

export interface HeredocBody {
  body: string;
  // Index just after the delimiter line (or the end of the text).
  end: number;
  terminated: boolean;
}

// Reads here-document lines from `start` (the first character after the line that holds `<<`) until a
// line equal to the delimiter; with <<- leading tabs are removed from every line, delimiter included.
export function readHeredocBody(
  source: SourceText,
  start: number,
  delimiter: string,
  stripTabs: boolean,
): HeredocBody {
  const { chars } = source;
  let i = start;
  let body = '';
  while (i < chars.length) {
    let end = chars.indexOf('\n', i);
    if (end < 0) end = chars.length;
    let line = source.slice(i, end);
    if (stripTabs) line = line.replace(/^\t+/, '');
    const next = Math.min(end + 1, chars.length);
    if (line === delimiter) return { body, end: next, terminated: true };
    // bash ends every body line with a newline, the last one of an unterminated body too.
    body += `${line}\n`;
    i = next;
  }
  return { body, end: chars.length, terminated: false };
}

// The delimiter word after << as bash reads it: quoted (any quote or backslash in it) means a literal
// body; the delimiter itself is the word after quote removal.
export function heredocDelimiter(raw: string): { delimiter: string; quoted: boolean } {
  const quoted = /['"\\]/.test(raw);
  let delimiter = '';
  for (let i = 0; i < raw.length; i += 1) {
    const c = raw[i]!;
    if (c === "'") {
      const close = raw.indexOf("'", i + 1);
      delimiter += raw.slice(i + 1, close < 0 ? raw.length : close);
      i = close < 0 ? raw.length : close;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < raw.length && raw[j] !== '"'; j += 1) {
        if (raw[j] === '\\' && '$`"\\'.includes(raw[j + 1] ?? '')) j += 1;
        delimiter += raw[j];
      }
      i = j;
    } else if (c === '\\') {
      i += 1;
      delimiter += raw[i] ?? '';
    } else delimiter += c;
  }
  return { delimiter, quoted };
}

// An unquoted here-document body is expanded by bash; safe-run takes it only when nothing in it would
// change ($, backquote and backslash are the only characters bash treats specially there).
export function isInertBody(body: string): boolean {
  return !/[$`\\]/.test(body);
}

const HEAD = /^\$\([ \t]*cat[ \t]+<<(-?)[ \t]*('[^'\n]*'|"[^"\n$`\\]*"|\\?[A-Za-z0-9_.\-+=:,@%]+)[ \t]*\n/;

// `$(cat <<'EOF' ... EOF)`, the way agents write multi-line commit messages: its value is the body
// minus trailing newlines, known without running cat. Returns null for any other $(...).
export function matchHeredocSubstitution(
  source: SourceText,
  i: number,
): { value: string; end: number } | null {
  const rest = source.slice(i, i + 400);
  const head = HEAD.exec(rest);
  if (!head) return null;
  const { delimiter, quoted } = heredocDelimiter(head[2]!);
  const bodyStart = i + Array.from(head[0]).length;
  const found = readHeredocBody(source, bodyStart, delimiter, head[1] === '-');
  if (!found.terminated) return null;
  if (!quoted && !isInertBody(found.body)) return null;
  let j = found.end;
  while (source.chars[j] === ' ' || source.chars[j] === '\t' || source.chars[j] === '\n') j += 1;
  if (source.chars[j] !== ')') return null;
  return { value: found.body.replace(/\n+$/, ''), end: j + 1 };
}
