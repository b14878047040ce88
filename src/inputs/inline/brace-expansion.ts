import { OR_BASH, refuse, show } from './refusals.js';

// An unquoted "{" that may start a brace expansion. As in bash, a "}" at the brace's own depth only
// closes it once a "," or ".." has been seen at that depth; an earlier "}" is plain text.
interface OpenBrace {
  col: number;
  depth: number;
  separated: boolean;
}

// Watches the unquoted characters of one word and refuses it once they make a brace expansion.
export class BraceTracker {
  private readonly braces: OpenBrace[] = [];

  constructor(
    private readonly chars: string[],
    private readonly start: number,
  ) {}

  see(c: string, i: number, lastPlain: string | undefined): void {
    const { chars } = this;
    const col = i + 1;
    for (const open of this.braces) {
      if (c === '{') open.depth += 1;
      else if (c === '}' && open.depth > 0) open.depth -= 1;
      else if (c === '}' && open.separated) {
        refuse(
          'syntax.brace',
          `brace expansion ${show(chars.slice(open.col - 1, col).join(''))} at column ${open.col} makes several words in bash, which safe-run does not do; quote the braces to pass them as text, ${OR_BASH}`,
        );
      } else if (open.depth === 0 && (c === ',' || (c === '.' && lastPlain === '.'))) open.separated = true;
    }
    // bash skips a "{" that starts the word or follows a blank when a "}" comes right after it.
    const skipped = (i === this.start || ' \t\n'.includes(chars[i - 1]!)) && chars[i + 1] === '}';
    if (c === '{' && !skipped) this.braces.push({ col, depth: 0, separated: false });
  }
}
