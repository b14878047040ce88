import { OR_BASH, refuse, show } from './refusals.js';

// Open "{"s that stand at the same depth: they see every later character alike, so they are kept as one
// entry. `level` is their depth plus the tracker's offset; `col` is the oldest one's column and
// `separatedCol` the oldest one's that has seen a "," or ".." at its own depth.
interface BraceGroup {
  level: number;
  col: number;
  separatedCol: number | null;
}

// Watches the unquoted characters of one word and refuses it once they make a brace expansion. As in
// bash, a "}" at a brace's own depth only closes it once a "," or ".." has been seen at that depth; an
// earlier "}" is plain text, and the brace stays open.
//
// Each character costs O(1) amortized, so a word of n characters costs O(n) (checking every open brace
// at every character made `{a{a{a...}}}` quadratic). Depths only ever differ between braces opened at
// different times, and older braces are never shallower than newer ones, so the braces at depth 0 are
// always the newest group: a "{" deepens every open brace (the offset moves), a "}" makes every brace
// above depth 0 one shallower (the offset moves back, and the depth-0 group stays at 0, merging with the
// one that reaches it).
export class BraceTracker {
  private readonly groups: BraceGroup[] = [];
  private offset = 0;

  constructor(
    private readonly chars: string[],
    private readonly start: number,
  ) {}

  see(c: string, i: number, lastPlain: string | undefined): void {
    const col = i + 1;
    if (c === '{') this.offset -= 1;
    else if (c === '}') this.close(col);
    else if (c === ',' || (c === '.' && lastPlain === '.')) this.separate();
    // bash skips a "{" that starts the word or follows a blank when a "}" comes right after it.
    const { chars } = this;
    const skipped = (i === this.start || ' \t\n'.includes(chars[i - 1]!)) && chars[i + 1] === '}';
    if (c === '{' && !skipped) this.join({ level: this.offset, col, separatedCol: null });
  }

  private atZero(): BraceGroup | undefined {
    const top = this.groups.at(-1);
    return top && top.level === this.offset ? top : undefined;
  }

  private separate(): void {
    const zero = this.atZero();
    if (zero) zero.separatedCol ??= zero.col;
  }

  private close(col: number): void {
    const zero = this.atZero();
    if (zero?.separatedCol != null) {
      const open = zero.separatedCol;
      refuse(
        'syntax.brace',
        `brace expansion ${show(this.chars.slice(open - 1, col).join(''))} at column ${open} makes several words in bash, which safe-run does not do; quote the braces to pass them as text, ${OR_BASH}`,
      );
    }
    this.offset += 1;
    if (!zero) return;
    // The popped group itself moves a level out: a copy per closing brace made the check of 200,000
    // nested braces cost 15-16x that of 20,000 (memory, not steps); in place it is 9x.
    this.groups.pop();
    zero.level = this.offset;
    this.join(zero);
  }

  // Adds a group at depth 0, merged with the one there already (the older one's columns come first).
  private join(group: BraceGroup): void {
    const zero = this.atZero();
    if (!zero) {
      this.groups.push(group);
      return;
    }
    zero.separatedCol ??= group.separatedCol;
  }
}
