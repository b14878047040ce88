// What a program or file may be named, and so what a report may quote, includes ESC, newline and other
// control bytes; printed raw they would move the cursor, recolour the terminal or forge table rows.
// Every text a human reporter prints from the report goes through here: control characters (C0, DEL,
// C1) become visible escapes, everything else is left alone (so it is idempotent, and a backslash
// that was typed stays a backslash).
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\x1b': '\\e' };

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

export function shownText(text: string): string {
  return text.replace(
    CONTROL,
    (char) => NAMED[char] ?? `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}
