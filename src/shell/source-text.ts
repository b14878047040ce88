import { refuseSyntax } from './refuse.js';

// The -c text as characters (code points), with the line of each, so that positions are columns.
export class SourceText {
  readonly chars: string[];
  private readonly lines: number[];

  constructor(readonly text: string) {
    this.chars = Array.from(text);
    this.lines = [];
    let line = 1;
    for (const c of this.chars) {
      this.lines.push(line);
      if (c === '\n') line += 1;
    }
    this.lines.push(line);
  }

  lineAt(i: number): number {
    return this.lines[Math.min(i, this.lines.length - 1)]!;
  }

  slice(from: number, to: number): string {
    return this.chars.slice(from, to).join('');
  }

  startsWith(prefix: string, at: number): boolean {
    return this.slice(at, at + Array.from(prefix).length) === prefix;
  }
}

// Control characters other than tab and newline never reach a program or a report raw: a carriage
// return from a CRLF file would become part of the last argument, which nobody means.
export function checkControlCharacters(source: SourceText): void {
  const at = source.chars.findIndex((c) => /[\x00-\x08\x0b-\x1f\x7f]/.test(c));
  if (at < 0) return;
  const c = source.chars[at]!;
  const name =
    c === '\r'
      ? 'carriage return (the text has CRLF line endings?)'
      : c === '\0'
        ? 'NUL character'
        : `control character \\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  const advice =
    c === '\r' ? 'remove the carriage returns (e.g. tr -d "\\r")' : 'remove it, or write it with printf';
  refuseSyntax('syntax.control', at + 1, `${name} at column ${at + 1}; ${advice}`);
}
