import { brandError, isBranded, RequestError } from '../errors.js';
import type { RequestErrorCode } from '../types.js';

// Advice that keeps the meaning: bash runs the text, still supervised. (A spec file is one pipeline of
// argv stages: it can say none of what is refused here, lists, loops, jobs or the shell's own state.)
export const WAY_OUT = 'add --fallback bash to run the whole text as one supervised bash stage';

// User text inside a one-line message: control characters escaped, long text cut.
export function escapeText(text: string): string {
  const chars = Array.from(text);
  const short = chars.length > 40 ? `${chars.slice(0, 40).join('')}…` : text;
  return short.replace(/[\x00-\x1f\x7f-\x9f\u2028\u2029]/g, (c) =>
    c === '\n' ? '\\n' : c === '\t' ? '\\t' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

// A construct safe-run does not interpret itself. `construct` names it as written or as bash calls
// it ("for loop", "2>&1 to fd 3"); the fallback report repeats it.
export class Refusal extends RequestError {
  readonly construct: string;
  // The sentence without its subject ("-c: "): what text run inside the shell (eval, source, a trap)
  // reports under its own label.
  readonly detail: string;

  constructor(code: RequestErrorCode, construct: string, column: number, detail: string) {
    super(code, `-c: ${detail}`, column);
    this.construct = escapeText(construct);
    this.detail = detail;
    brandError(this, 'refusal');
  }
}

export function isRefusal(value: unknown): value is Refusal {
  return isBranded(value, 'refusal');
}

// JavaScript's stack ran out: the parser and the check walk the tree recursively, and a text that
// nests about a thousand groups, subshells or ifs deep exhausts it (bash's parser stops at about
// three thousand with a syntax error).
export function tooDeep(error: unknown): boolean {
  return error instanceof RangeError && error.message.includes('call stack');
}

export function nestingRefusal(): Refusal {
  const why = 'nests more deeply than safe-run can read (its stack ran out)';
  return new Refusal('syntax.nesting', 'the text', 1, `the text ${why}; ${WAY_OUT}`);
}
