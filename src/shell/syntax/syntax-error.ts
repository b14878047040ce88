import { brandError, RequestError } from '../../errors.js';
import type { RequestErrorCode } from '../../types.js';
import type { Pos } from './nodes.js';

// Text that bash itself would reject as a syntax error: refused before anything runs (exit 125),
// with where it is. No fallback helps (bash would refuse it too): the fix is in the text.
export class ShellSyntaxError extends RequestError {
  readonly pos: Pos;
  // The sentence without its subject ("-c: "), for text the shell runs under another label (eval).
  readonly detail: string;

  // `what`: a token as bash would name it (`"fi"`, `end of text`), or a whole sentence.
  constructor(code: RequestErrorCode, what: string, pos: Pos, multiline: boolean) {
    const detail = sentence(what, place(pos, multiline));
    super(code, `-c: ${detail}`, pos.col);
    this.pos = pos;
    this.detail = detail;
    brandError(this, 'shell-syntax');
  }
}

export function place(pos: Pos, multiline: boolean): string {
  return multiline ? `line ${pos.line}, column ${pos.col}` : `column ${pos.col}`;
}

// A token (as describeToken names it) is said as unexpected; anything else is a sentence with {at}
// where the place goes (a sentence may start with a quoted word: `"if" at {at} is never closed`).
function sentence(what: string, where: string): string {
  const token = what === 'end of text' || what === 'end of line' || /^".*"$/s.test(what);
  if (token && !what.includes(' at {at}')) return `unexpected ${what} at ${where} (a syntax error in bash)`;
  return what.replaceAll('{at}', where);
}
