import type { Bytes } from '../../syntax/source.js';

// One byte of a read record; `escaped`: a backslash before it (read without -r) kept it from IFS.
export type Ch = { c: string; escaped: boolean };

// How many bytes a character starting with `lead` takes in UTF-8 as the C library reads it (up to
// six; overlong forms and surrogates are not characters), 1 for a byte that starts none.
function sizeOf(lead: number): number {
  if (lead < 0xc2 || lead > 0xfd) return 1;
  return lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : lead < 0xf8 ? 4 : lead < 0xfc ? 5 : 6;
}

// Whether `byte` may follow the bytes of a UTF-8 character begun (the C library reads on while it
// does, and says whether the whole is a character at its end).
export function continues(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

// Whether a whole sequence is a character: not overlong, not a surrogate.
function whole(lead: number, second: number): boolean {
  const low = { 224: 0xa0, 240: 0x90, 248: 0x88, 252: 0x84 }[lead] ?? 0x80;
  return second >= low && (lead !== 0xed || second < 0xa0);
}

// The bytes read still owed to a multi-byte character started by `lead` (0: it is whole or invalid).
export function owed(sofar: readonly number[]): number {
  return sizeOf(sofar[0]!) - sofar.length;
}

// The length of the whole character at `at` (unescaped bytes only), 1 when there is none there.
function charAt(chars: readonly Ch[], at: number, utf8: boolean): number {
  const size = utf8 ? sizeOf(chars[at]!.c.charCodeAt(0)) : 1;
  if (size === 1 || at + size > chars.length) return 1;
  for (let k = 1; k < size; k++) {
    const ch = chars[at + k]!;
    if (ch.escaped || !continues(ch.c.charCodeAt(0))) return 1;
  }
  return whole(chars[at]!.c.charCodeAt(0), chars[at + 1]!.c.charCodeAt(0)) ? size : 1;
}

// bash's splitting of a read record by IFS, byte by byte as bash does it: a whole multi-byte character
// separates when it is one of IFS's characters, any other byte (a lone byte of one too) when it is
// one of IFS's bytes; white space is space, tab and newline, or (IFS not exactly those three) any
// C-locale space where bash asks isspace.
export class ReadSplitter {
  private readonly wide: Bytes[];
  private readonly plain: boolean;

  constructor(
    private readonly chars: readonly Ch[],
    private readonly ifs: Bytes,
    private readonly utf8: boolean,
  ) {
    this.plain = ifs === ' \t\n';
    this.wide = utf8 ? multiByteChars(ifs) : [];
  }

  private inIfs = (at: number) =>
    at < this.chars.length && !this.chars[at]!.escaped && this.ifs.includes(this.chars[at]!.c);
  private spctabnl = (at: number) => this.inIfs(at) && ' \t\n'.includes(this.chars[at]!.c);
  private space = (at: number) => this.inIfs(at) && ' \t\n\v\f\r'.includes(this.chars[at]!.c);
  private whitesep = (at: number) => (this.plain ? this.spctabnl(at) : this.space(at));
  private advance = (at: number) => at + (this.chars[at]!.escaped ? 1 : charAt(this.chars, at, this.utf8));

  private separatorAt(at: number): boolean {
    const ch = this.chars[at]!;
    if (ch.escaped) return false;
    const size = charAt(this.chars, at, this.utf8);
    if (size === 1) return this.ifs.includes(ch.c);
    const text = this.text(at, at + size);
    return this.wide.includes(text);
  }

  text(from: number, to = this.chars.length): Bytes {
    let out = '';
    for (let at = from; at < to; at++) out += this.chars[at]!.c;
    return out;
  }

  get length(): number {
    return this.chars.length;
  }

  // read's own trimming before the first name: IFS space, tab and newline.
  lead(): number {
    let at = 0;
    while (this.ifs !== '' && this.spctabnl(at)) at++;
    return at;
  }

  private wordEnd(from: number): number {
    let at = from;
    while (at < this.chars.length && !this.separatorAt(at)) at = this.advance(at);
    return at;
  }

  // One field from `from` for a name (null: only white space is left), and where the next starts.
  word(from: number): { word: Bytes | null; next: number } {
    let at = from;
    while (this.plain ? this.spctabnl(at) : this.space(at)) at++;
    if (at >= this.chars.length) return { word: null, next: at };
    const end = this.wordEnd(at);
    const word = this.text(at, end);
    return { word, next: this.pastSeparator(end, this.spctabnl) };
  }

  private pastSeparator(end: number, skip: (at: number) => boolean): number {
    if (end >= this.chars.length) return end;
    const white = this.whitesep(end);
    let at = this.advance(end);
    while (skip(at)) at++;
    if (white && this.inIfs(at) && !this.whitesep(at)) {
      at++;
      while (this.whitesep(at)) at++;
    }
    return at;
  }

  // What the last name takes from `from`: its one field when nothing is after it, else the rest
  // without trailing IFS white space.
  last(from: number): Bytes {
    if (from >= this.chars.length) return '';
    const { word, next } = this.word(from);
    if (next >= this.chars.length) return word ?? '';
    let end = this.chars.length;
    // (an escaped space, tab or newline of IFS goes too)
    while (
      end - 1 > from &&
      ' \t\n'.includes(this.chars[end - 1]!.c) &&
      this.ifs.includes(this.chars[end - 1]!.c)
    )
      end--;
    return this.text(from, end);
  }

  // read -a: every field, as bash splits words (an empty field for a separator that is not white space).
  fields(): Bytes[] {
    const out: Bytes[] = [];
    let at = 0;
    if (this.ifs !== '') while (this.space(at)) at++;
    while (at < this.chars.length) {
      const end = this.wordEnd(at);
      if (end > at) out.push(this.text(at, end));
      else if (!this.plain && !this.space(end)) out.push('');
      at = this.pastSeparator(end, this.whitesep);
    }
    return out;
  }
}

function multiByteChars(ifs: Bytes): Bytes[] {
  const chars = [...ifs].map((c) => ({ c, escaped: false }));
  const out: Bytes[] = [];
  for (let at = 0; at < chars.length; ) {
    const size = charAt(chars, at, true);
    if (size > 1) out.push(ifs.slice(at, at + size));
    at += size;
  }
  return out;
}
