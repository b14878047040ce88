// Words a POSIX shell reads back as themselves; anything else is shown single-quoted.
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

const CONTROL = /[\x00-\x1f\x7f]/;
const C_ESCAPES: Record<string, string> = { '\n': '\\n', '\t': '\\t', '\r': '\\r', "'": "\\'", '\\': '\\\\' };

// One word as a person would type it into bash. A word with a newline or another control character
// is shown as bash's $'...', so the command stays on one line and can still be pasted into bash.
export function quoteWord(word: string): string {
  if (PLAIN_WORD.test(word)) return word;
  if (!CONTROL.test(word)) return `'${word.replaceAll("'", `'\\''`)}'`;
  const escaped = [...word]
    .map(
      (ch) =>
        C_ESCAPES[ch] ?? (CONTROL.test(ch) ? `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}` : ch),
    )
    .join('');
  return `$'${escaped}'`;
}
