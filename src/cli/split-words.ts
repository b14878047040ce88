import { RequestError } from '../errors.js';

// The variable whose words are read as flags before the command line's (src/cli/env-options.ts).
export const ENV_OPTIONS = 'SAFE_RUN_OPTIONS';

// Words of a flags string (SAFE_RUN_OPTIONS) split as a shell splits a command line, with quoting
// and nothing else: blanks separate words; '...' is literal; "..." is literal except that \ escapes
// " \ $ and `; outside quotes \ escapes the next character. No expansion: $HOME stays $HOME.
export function splitWords(text: string, origin: string): string[] {
  const words: string[] = [];
  let word = '';
  // A word has begun (so '' is a word of its own).
  let started = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    const next = text[i + 1] ?? '';
    if (quote === "'") {
      if (char === "'") quote = null;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = null;
      else if (char === '\\' && next !== '' && '"\\$`'.includes(next)) {
        word += next;
        i += 1;
      } else word += char;
    } else if (char === ' ' || char === '\t' || char === '\n') {
      if (started) words.push(word);
      word = '';
      started = false;
    } else {
      started = true;
      if (char === "'" || char === '"') quote = char;
      else if (char === '\\' && next !== '') {
        word += next;
        i += 1;
      } else word += char;
    }
  }
  if (quote !== null) {
    throw new RequestError('usage.env-options', `${origin}: a ${quote} quote is not closed`);
  }
  if (started) words.push(word);
  return words;
}
