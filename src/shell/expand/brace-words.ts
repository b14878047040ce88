import type { Word } from '../syntax/nodes.js';
import { parseWordText } from '../syntax/parse.js';
import type { Bytes } from '../syntax/source.js';
import { braceExpand } from './brace.js';
import { ExpansionError } from './env.js';

// Brace expansion on the word's text, each result read again as a word. A result with no text at all
// is no word, as in bash (`echo x {,} y` is `echo x y`; `""{,}` keeps its two quoted empty words).
export function braceWords(word: Word): Word[] {
  if (word.raw === undefined || !word.raw.includes('{')) return [word];
  const texts = braceExpand(word.raw);
  if (texts.length === 1 && texts[0] === word.raw) return [word];
  return texts.flatMap((text) => {
    if (text === '') return [];
    const parsed = trailingBackslash(text) ? dropped(text, word) : (parseWordText(text) ?? unfinished(text));
    return [parsed ? { ...parsed, start: word.start, end: word.end } : literalWord(text, word)];
  });
}

// A letter range through `\` and `` ` `` ({Z..a}) makes results with a lone backslash or backquote,
// read again as bash reads them: a backslash that ends the word is dropped (`\` alone is an empty
// word, quoted still); a backquote that ends it is itself; any other that no backquote closes is an
// error ("no closing").
function trailingBackslash(text: Bytes): boolean {
  return (/\\+$/.exec(text)?.[0].length ?? 0) % 2 === 1;
}

function dropped(text: Bytes, word: Word): Word | null {
  return text.length === 1 ? literalWord('', word) : parseWordText(text.slice(0, -1));
}

function unfinished(text: Bytes): Word | null {
  const tick = openTick(text);
  if (tick === -1) return null;
  if (tick === text.length - 1) return parseWordText(`${text.slice(0, -1)}\\\``);
  throw new ExpansionError(`bad substitution: no closing "\`" in ${text.slice(tick)}`, 1, true);
}

// Where a backquote opens that no other closes (outside quotes and escapes), or -1.
function openTick(text: Bytes): number {
  let open = -1;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && quote !== "'") i++;
    else if (quote === "'" ? c === "'" : quote === '"' ? c === '"' : false) quote = null;
    else if (quote === null && (c === "'" || c === '"')) quote = c;
    else if (c === '`' && quote !== "'") open = open === -1 ? i : -1;
  }
  return open;
}

function literalWord(text: Bytes, at: Word): Word {
  return { parts: [{ kind: 'sq', value: text, start: at.start, end: at.end }], start: at.start, end: at.end };
}
