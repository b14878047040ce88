// bash's arithmetic operators: which are assignments, the precedence of the binary ones, and what
// each computes on 64-bit signed integers that wrap.

export const ASSIGN_OPS = new Set(['=', '*=', '/=', '%=', '+=', '-=', '<<=', '>>=', '&=', '^=', '|=']);
export const wrap = (v: bigint) => BigInt.asIntN(64, v);
export const truth = (v: bigint) => (v !== 0n ? 1n : 0n);

// The left-associative binary levels, loosest first: | ^ & (== !=) (< > <= >=) (<< >>) (+ -) (* / %).
export const LEVELS = [
  ['|'],
  ['^'],
  ['&'],
  ['==', '!='],
  ['<=', '>=', '<', '>'],
  ['<<', '>>'],
  ['+', '-'],
  ['*', '/', '%'],
];

// A binary operator applied; fail reports a division by 0 where the caller stands.
export function binaryOp(op: string, a: bigint, b: bigint, fail: (why: string) => never): bigint {
  switch (op) {
    case '+':
      return wrap(a + b);
    case '-':
      return wrap(a - b);
    case '*':
      return wrap(a * b);
    case '/':
      if (b === 0n) fail('division by 0');
      return wrap(a / b);
    case '%':
      if (b === 0n) fail('division by 0');
      return b === -1n ? 0n : wrap(a % b);
    case '**':
      return power(a, b);
    case '<<':
      return wrap(a << (b & 63n));
    case '>>':
      return wrap(a >> (b & 63n));
    case '&':
      return wrap(a & b);
    case '|':
      return wrap(a | b);
    case '^':
      return wrap(a ^ b);
    case '==':
      return a === b ? 1n : 0n;
    case '!=':
      return a !== b ? 1n : 0n;
    case '<':
      return a < b ? 1n : 0n;
    case '>':
      return a > b ? 1n : 0n;
    case '<=':
      return a <= b ? 1n : 0n;
    default:
      return a >= b ? 1n : 0n;
  }
}

function power(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let b = base;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = wrap(result * b);
    b = wrap(b * b);
    e >>= 1n;
  }
  return result;
}
