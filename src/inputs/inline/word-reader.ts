import { BraceTracker } from './brace-expansion.js';
import { OR_BASH, refuse, refuseOperator, refuseReserved, unquoted } from './refusals.js';
import type { UnitKind, Word } from './word.js';

function isWordEnd(ch: string | undefined): boolean {
  return ch === undefined || ' \t\n|&;<>()'.includes(ch);
}

// Reads one word from column start + 1 the way bash would, refusing anything bash would not pass on
// as plain text.
export class WordReader {
  private readonly word: Word;
  private readonly braces: BraceTracker;
  private nameSoFar = true;
  private i: number;

  constructor(
    private readonly chars: string[],
    private readonly start: number,
    private readonly atCommand: boolean,
  ) {
    this.i = start;
    this.braces = new BraceTracker(chars, start);
    this.word = { col: start + 1, raw: '', units: [], assignAt: -1, append: false };
  }

  read(): { word: Word; end: number } {
    const { chars, start } = this;
    for (let c = chars[this.i]; c !== undefined && c !== ' ' && c !== '\t' && c !== '|'; c = chars[this.i]) {
      if (c === "'") this.readSingleQuoted();
      else if (c === '"') this.readDoubleQuoted();
      else if (c === '\\') this.readEscape();
      else this.readPlain(c);
    }
    this.word.raw = chars.slice(start, this.i).join('');
    return { word: this.word, end: this.i };
  }

  private add(ch: string, kind: UnitKind): void {
    const { word } = this;
    if (word.assignAt < 0 && this.nameSoFar) {
      const first = word.units.length === 0;
      const plain = kind === 'plain';
      if (plain && (first ? /[A-Za-z_]/ : /[A-Za-z0-9_]/).test(ch)) {
        // still a name
      } else if (plain && !first && ch === '=') {
        word.assignAt = word.units.length;
      } else if (plain && !first && ch === '+' && this.chars[this.i + 1] === '=') {
        word.append = true;
      } else {
        this.nameSoFar = false;
      }
    }
    word.units.push({ ch, kind });
  }

  private readSingleQuoted(): void {
    const close = this.chars.indexOf("'", this.i + 1);
    if (close < 0) {
      refuse(
        'syntax.unterminated',
        `the single quote at column ${this.i + 1} is never closed; add the closing ' or, to pass a quote as text, write \\' or "'"`,
      );
    }
    this.add("'", 'mark');
    for (const ch of this.chars.slice(this.i + 1, close)) this.add(ch, 'quoted');
    this.add("'", 'mark');
    this.i = close + 1;
  }

  private readDoubleQuoted(): void {
    const open = this.i;
    this.add('"', 'mark');
    for (let j = open + 1; ; j += 1) {
      const c = this.chars[j];
      if (c === undefined) {
        refuse(
          'syntax.unterminated',
          `the double quote at column ${open + 1} is never closed; add the closing " or, to pass a quote as text, write \\" or '"'`,
        );
      }
      if (c === '"') {
        this.add('"', 'mark');
        this.i = j + 1;
        return;
      }
      if (c === '$' || c === '`') {
        const name = c === '$' ? 'an expansion' : 'a command substitution';
        refuse(
          'syntax.expansion',
          `"${c}" inside double quotes at column ${j + 1} starts ${name} in bash, which safe-run does not perform; escape it (\\${c}) or use single quotes to pass it as text, ${OR_BASH}`,
        );
      }
      const next = this.chars[j + 1];
      if (c === '\\' && next === '\n') this.refuseContinuation(j);
      if (c === '\\' && next !== undefined && '"\\$`'.includes(next)) {
        this.add('\\', 'mark');
        this.add(next, 'quoted');
        j += 1;
      } else {
        this.add(c, 'quoted');
      }
    }
  }

  private readEscape(): void {
    const next = this.chars[this.i + 1];
    if (next === '\n') this.refuseContinuation(this.i);
    if (next === undefined) {
      // bash keeps a backslash that ends the text as a literal backslash.
      this.add('\\', 'quoted');
      this.i += 1;
      return;
    }
    this.add('\\', 'mark');
    this.add(next, 'quoted');
    this.i += 2;
  }

  private refuseContinuation(at: number): never {
    return refuse(
      'syntax.newline',
      `backslash-newline at column ${at + 1} is a line continuation in bash, which safe-run does not interpret; join the lines, ${OR_BASH}`,
    );
  }

  private readPlain(c: string): void {
    const { chars, i, word } = this;
    const col = i + 1;
    const last = word.units.at(-1);
    const atStart = last === undefined;
    const lastPlain = last?.kind === 'plain' ? last.ch : undefined;
    if (c === '\n') {
      refuse(
        'syntax.newline',
        `unquoted newline at column ${col} ends a command in bash, which safe-run does not interpret; put "|" between stages, quote the newline to pass it as text, ${OR_BASH}`,
      );
    }
    if (';&<>()'.includes(c)) refuseOperator(chars, i);
    if (c === '$')
      unquoted(
        'syntax.expansion',
        c,
        col,
        'starts an expansion in bash, which safe-run does not perform',
        "'$'",
      );
    if (c === '`') {
      unquoted(
        'syntax.expansion',
        c,
        col,
        'starts a command substitution in bash, which safe-run does not perform',
        "'`'",
      );
    }
    if (c === '[' && atStart && this.atCommand && chars[i + 1] === '[' && isWordEnd(chars[i + 2])) {
      refuseReserved('[[', col, 'a bash reserved word', 'to run a program by that name');
    }
    if (c === '*' || c === '?' || c === '[') {
      unquoted('syntax.glob', c, col, 'is a filename pattern in bash, which safe-run does not expand');
    }
    const afterAssign = word.assignAt >= 0 && (word.units.length - 1 === word.assignAt || lastPlain === ':');
    if (c === '~' && (atStart || afterAssign)) {
      unquoted(
        'syntax.tilde',
        c,
        col,
        'is a home-directory expansion in bash, which safe-run does not perform',
      );
    }
    if (c === '#' && atStart)
      unquoted('syntax.comment', c, col, 'starts a comment in bash, which safe-run does not strip');
    this.braces.see(c, i, lastPlain);
    this.add(c, 'plain');
    this.i += 1;
  }
}
