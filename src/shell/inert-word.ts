// The last check before a word's bash source reaches the expansion helper, independent of the parser
// that produced it: it reads the source as bash reads a word and names the first place where bash
// would run something (a command or process substitution) or evaluate arithmetic (whose array
// subscripts can run a command substitution held in a variable). Null: bash can only compute a value.
export function activePart(script: string): string | null {
  return new WordLexer(script).firstActive();
}

const NAME = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[?#@*$!-])/;
// What may follow the name inside ${...}: the end, or an operator that only computes a value.
const AFTER_NAME = /^(?:\}|:?[-+]|##?|%%?|\/[#%/]?|\^\^?|,,?)/;

class WordLexer {
  private i = 0;

  constructor(private readonly s: string) {}

  firstActive(): string | null {
    return this.scan(false, null);
  }

  // Reads until `end` (a closing " or }) or the end of the text; returns the first active part found.
  // Inside ${...} (`end` is }), <( and >( count even within double quotes: bash expands a pattern
  // operand (#, %, /, ^, ,) as if it were unquoted.
  private scan(quoted: boolean, end: string | null): string | null {
    const s = this.s;
    while (this.i < s.length) {
      const c = s[this.i]!;
      const next = s[this.i + 1];
      if (end !== null && c === end) return null;
      if (c === '\\') this.i += 2;
      else if (c === "'" && !quoted) this.skipSingle(this.i + 1);
      else if (c === '`') return 'a command substitution `...`';
      else if (c === '"') {
        this.i += 1;
        const found = this.scan(true, '"');
        if (found) return found;
        this.i += 1;
      } else if ((c === '<' || c === '>') && next === '(' && (!quoted || end === '}'))
        return `a process substitution ${c}(`;
      else if (c === '$') {
        const found = this.dollar(quoted);
        if (found) return found;
      } else this.i += 1;
    }
    return null;
  }

  private skipSingle(from: number): void {
    const close = this.s.indexOf("'", from);
    this.i = close < 0 ? this.s.length : close + 1;
  }

  private dollar(quoted: boolean): string | null {
    const next = this.s[this.i + 1];
    if (next === '(') return 'a command substitution or arithmetic $(';
    if (next === '[') return 'arithmetic $[';
    if (next === "'" && !quoted) {
      let j = this.i + 2;
      while (j < this.s.length && this.s[j] !== "'") j += this.s[j] === '\\' ? 2 : 1;
      this.i = j + 1;
      return null;
    }
    if (next !== '{') {
      this.i += 1;
      return null;
    }
    let j = this.i + 2;
    if (this.s[j] === '#' && this.s[j + 1] !== '}') j += 1;
    const name = NAME.exec(this.s.slice(j, j + 200))?.[0];
    if (name === undefined) return `\${${this.s[j] ?? ''} (indirect or not a parameter)`;
    j += name.length;
    const op = AFTER_NAME.exec(this.s.slice(j, j + 3))?.[0];
    if (op === undefined) return `\${${name}${this.s[j] ?? ''} (a subscript, substring or transformation)`;
    this.i = j + op.length;
    if (op === '}') return null;
    const found = this.scan(quoted, '}');
    this.i += 1;
    return found;
  }
}
