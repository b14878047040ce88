import type { StageResult } from '../../types.js';

// Words a POSIX shell reads back as themselves; anything else is shown single-quoted.
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

const CONTROL = /[\x00-\x1f\x7f]/;
const C_ESCAPES: Record<string, string> = { '\n': '\\n', '\t': '\\t', '\r': '\\r', "'": "\\'", '\\': '\\\\' };

// A word with a newline or another control character is shown as bash's $'...', so the command
// stays on one line and can still be pasted into bash.
function quoteWord(word: string): string {
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

// One stage's command as a person would type it: its argv, quoted where a shell would need it.
export function commandText(argv: readonly string[]): string {
  return argv.map(quoteWord).join(' ');
}

// The whole pipeline in one line: "cat report.txt | wc -l".
export function pipelineText(stages: readonly Pick<StageResult, 'argv'>[]): string {
  return stages.map((stage) => commandText(stage.argv)).join(' | ');
}

// The last `count` non-empty lines of a stream's kept text (the tail is what explains a failure).
export function lastLines(text: string | null, count: number): string[] {
  const lines = (text ?? '').split('\n').filter((line) => line.trim().length > 0);
  return lines.slice(-count);
}
