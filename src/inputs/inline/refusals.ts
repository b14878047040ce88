import { RequestError } from '../../errors.js';
import type { RequestErrorCode } from '../../types.js';

export const OR_BASH = "or run: safe-run -- bash -c '...'";

// Longest first, so that "&&" is named as "&&" and not as "&".
const OPERATORS: ReadonlyArray<readonly [string, string]> = [
  [';;&', 'a case terminator'],
  [';;', 'a case terminator'],
  [';&', 'a case terminator'],
  [';', 'a command separator'],
  ['&&', 'a command list'],
  ['&>>', 'a redirection'],
  ['&>', 'a redirection'],
  ['&', 'a background job'],
  ['||', 'a command list'],
  ['|&', 'a pipe of stdout and stderr'],
  ['<<<', 'a redirection'],
  ['<<-', 'a redirection'],
  ['<<', 'a redirection'],
  ['<&', 'a redirection'],
  ['<>', 'a redirection'],
  ['<(', 'a process substitution'],
  ['<', 'a redirection'],
  ['>>', 'a redirection'],
  ['>&', 'a redirection'],
  ['>|', 'a redirection'],
  ['>(', 'a process substitution'],
  ['>', 'a redirection'],
  ['(', 'a subshell'],
  [')', 'a subshell'],
];

export function refuse(code: RequestErrorCode, message: string): never {
  throw new RequestError(code, `-c: ${message}`);
}

// Shows user text inside a one-line message.
export function show(text: string): string {
  const chars = Array.from(text);
  const short = chars.length > 40 ? `${chars.slice(0, 40).join('')}…` : text;
  const escaped = short.replace(/[\x00-\x1f\x7f-\x9f\u2028\u2029]/g, (c) =>
    c === '\n' ? '\\n' : c === '\t' ? '\\t' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `"${escaped}"`;
}

export function unquoted(
  code: RequestErrorCode,
  ch: string,
  col: number,
  meaning: string,
  quoted = `"${ch}"`,
  purpose = 'to pass it as text',
): never {
  return refuse(
    code,
    `unquoted "${ch}" at column ${col} ${meaning}; quote it (${quoted}) ${purpose}, ${OR_BASH}`,
  );
}

export function refuseOperator(chars: string[], i: number): never {
  const [op, what] = OPERATORS.find(([op]) => chars.slice(i, i + op.length).join('') === op)!;
  return unquoted('syntax.operator', op, i + 1, `is shell syntax (${what}) that safe-run does not interpret`);
}

export function refuseReserved(word: string, col: number, meaning: string, purpose: string): never {
  return unquoted(
    'syntax.reserved',
    word,
    col,
    `is ${meaning} that safe-run does not interpret`,
    `"${word}"`,
    purpose,
  );
}
