// The tokens of a bash arithmetic expression, read one at a time as the evaluator asks for them (bash
// reads them lazily too, so a bad number after a valid part is reported at that number).

export type ArithToken =
  | { kind: 'num'; value: bigint }
  | { kind: 'id'; name: string; subscript: string | null }
  | { kind: 'op'; op: string }
  | { kind: 'end' };

export class ArithError extends Error {
  constructor(
    readonly why: string,
    // The text from the token where the problem was found (bash's "error token").
    readonly token: string,
    // Where bash's copy of the expression ends in its message, when not at its end: a bad number's
    // end (bash cuts the text there to read the number).
    readonly cut?: number,
  ) {
    super(why);
  }
}

const OPS = [
  '<<=',
  '>>=',
  '**',
  '++',
  '--',
  '<<',
  '>>',
  '<=',
  '>=',
  '==',
  '!=',
  '&&',
  '||',
  '*=',
  '/=',
  '%=',
  '+=',
  '-=',
  '&=',
  '^=',
  '|=',
  '+',
  '-',
  '*',
  '/',
  '%',
  '<',
  '>',
  '=',
  '!',
  '~',
  '&',
  '^',
  '|',
  '?',
  ':',
  ',',
  '(',
  ')',
];

export class ArithLexer {
  // Where the next token starts, and where the last one read started.
  tp = 0;
  lasttp = 0;
  token: ArithToken = { kind: 'end' };

  constructor(readonly text: string) {}

  fail(why: string, at = this.lasttp): never {
    throw new ArithError(why, this.text.slice(at));
  }

  next(): ArithToken {
    const t = this.text;
    while (this.tp < t.length && ' \t\n'.includes(t[this.tp]!)) this.tp++;
    // At the end, bash's error token stays the last token read.
    if (this.tp >= t.length) {
      this.token = { kind: 'end' };
      return this.token;
    }
    this.lasttp = this.tp;
    const c = t[this.tp]!;
    if (/[A-Za-z_]/.test(c)) return this.identifier();
    if (/[0-9]/.test(c)) return this.number();
    let op = OPS.find((o) => t.startsWith(o, this.tp));
    // (After a number or a name an operator was due; elsewhere an operand.)
    const after = this.token.kind === 'num' || this.token.kind === 'id';
    if (!op)
      this.fail(after ? 'syntax error: invalid arithmetic operator' : 'syntax error: operand expected');
    if ((op === '++' || op === '--') && !this.stepOp()) op = op[0]!;
    this.tp += op.length;
    this.token = { kind: 'op', op };
    return this.token;
  }

  // `++` and `--` step a variable after a name (x++) or before one (--x); elsewhere they are two
  // signs (`--1` is 1), as bash reads them.
  private stepOp(): boolean {
    if (this.token.kind === 'id') return true;
    let i = this.tp + 2;
    while (i < this.text.length && ' \t\n'.includes(this.text[i]!)) i++;
    return /[A-Za-z_]/.test(this.text[i] ?? '');
  }

  private identifier(): ArithToken {
    const t = this.text;
    const start = this.tp;
    while (this.tp < t.length && /[A-Za-z0-9_]/.test(t[this.tp]!)) this.tp++;
    const name = t.slice(start, this.tp);
    let subscript: string | null = null;
    if (t[this.tp] === '[') {
      const close = closingBracket(t, this.tp + 1);
      if (close < 0) this.fail('bad array subscript', start);
      subscript = t.slice(this.tp + 1, close);
      this.tp = close + 1;
    }
    this.token = { kind: 'id', name, subscript };
    return this.token;
  }

  private number(): ArithToken {
    const t = this.text;
    const start = this.tp;
    while (this.tp < t.length && /[A-Za-z0-9_#@]/.test(t[this.tp]!)) this.tp++;
    const text = t.slice(start, this.tp);
    try {
      this.token = {
        kind: 'num',
        value: parseNumber(text, () => this.fail('value too great for base', start)),
      };
    } catch (error) {
      if (error instanceof ArithError) throw new ArithError(error.why, text, this.tp);
      throw error;
    }
    return this.token;
  }
}

function closingBracket(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    if (text[i] === '[') depth++;
    else if (text[i] === ']') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

// A number as bash reads one: decimal, 0x hex, 0 octal, or BASE#digits (2 to 64; digits 0-9, a-z,
// A-Z, @, _; below 37 letters of either case are the same digit).
function parseNumber(text: string, tooGreat: () => never): bigint {
  let base = 10;
  let digits = text;
  const hash = text.indexOf('#');
  // A # after a base given already (0, 0x, BASE#) is bash's "invalid number", met among the digits.
  if (hash >= 0 && !(text.startsWith('0') && hash > 0)) {
    base = Number(text.slice(0, hash));
    digits = text.slice(hash + 1);
    if (!Number.isInteger(base) || base < 2 || base > 64)
      throw new ArithError('invalid arithmetic base', text);
    // BASE# is to be followed by a digit, or a letter that could be one (bash checks no more here).
    if (!/^[0-9A-Za-z@_]/.test(digits)) throw new ArithError('invalid integer constant', text);
  } else if (/^0[xX]/.test(text)) {
    base = 16;
    digits = text.slice(2);
  } else if (text.startsWith('0') && text.length > 1) {
    base = 8;
    digits = text.slice(1);
  }
  let value = 0n;
  for (const c of digits) {
    if (c === '#') throw new ArithError('invalid number', text);
    const digit = digitValue(c, base);
    if (digit < 0 || digit >= base) tooGreat();
    value = BigInt.asIntN(64, value * BigInt(base) + BigInt(digit));
  }
  return value;
}

function digitValue(c: string, base: number): number {
  const code = c.charCodeAt(0);
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 122) return code - 97 + 10;
  if (code >= 65 && code <= 90) return base <= 36 ? code - 65 + 10 : code - 65 + 36;
  if (c === '@') return 62;
  if (c === '_') return 63;
  return -1;
}
