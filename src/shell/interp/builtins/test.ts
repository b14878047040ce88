import { COND_BINARY } from '../../syntax/cond.js';
import type { Bytes } from '../../syntax/source.js';
import { fileCompare, isUnaryOp, unaryTestIn } from '../file-tests.js';
import type { Shell } from '../shell.js';
import type { BuiltinContext } from './context.js';

// [[ ]]'s binary operators but =~, which test and [ do not have.
const BINARY = new Set([...COND_BINARY].filter((op) => op !== '=~'));

class TestError extends Error {}

// test ARGS and [ ARGS ]: POSIX's rules by number of arguments, then -a, -o, ! and ( ) beyond four.
export async function test(ctx: BuiltinContext): Promise<number> {
  let args = ctx.args;
  if (ctx.name === '[') {
    if (args.at(-1) !== ']') return ctx.fail("missing `]'", 2);
    args = args.slice(0, -1);
  }
  try {
    return (await new TestEval(args, ctx).run()) ? 0 : 1;
  } catch (error) {
    if (error instanceof TestError) return ctx.fail(error.message, 2);
    throw error;
  }
}

class TestEval {
  private i = 0;

  constructor(
    private readonly args: readonly Bytes[],
    private readonly ctx: BuiltinContext,
  ) {}

  private get sh(): Shell {
    return this.ctx.sh;
  }

  async run(): Promise<boolean> {
    const a = this.args;
    switch (a.length) {
      case 0:
        return false;
      case 1:
        return a[0] !== '';
      case 2:
        return this.two(a[0]!, a[1]!);
      case 3:
        return this.three(a[0]!, a[1]!, a[2]!);
      case 4:
        if (a[0] === '!') return !(await this.three(a[1]!, a[2]!, a[3]!));
        if (a[0] === '(' && a[3] === ')') return this.two(a[1]!, a[2]!);
        break;
    }
    const value = await this.or();
    if (this.i < a.length) throw new TestError('too many arguments');
    return value;
  }

  private async two(first: Bytes, second: Bytes): Promise<boolean> {
    if (first === '!') return second === '';
    if (isUnaryOp(first)) return unaryTestIn(this.ctx.r, first, second);
    throw new TestError(`${first}: unary operator expected`);
  }

  private async three(a: Bytes, op: Bytes, b: Bytes): Promise<boolean> {
    if (BINARY.has(op)) return this.binary(a, op, b);
    if (op === '-a') return a !== '' && b !== '';
    if (op === '-o') return a !== '' || b !== '';
    if (a === '!') return !(await this.two(op, b));
    if (a === '(' && b === ')') return op !== '';
    throw new TestError(`${op}: binary operator expected`);
  }

  private async or(): Promise<boolean> {
    let value = await this.and();
    while (this.args[this.i] === '-o') {
      this.i++;
      const right = await this.and();
      value = value || right;
    }
    return value;
  }

  private async and(): Promise<boolean> {
    let value = await this.not();
    while (this.args[this.i] === '-a') {
      this.i++;
      const right = await this.not();
      value = value && right;
    }
    return value;
  }

  private async not(): Promise<boolean> {
    if (this.args[this.i] === '!') {
      this.i++;
      return !(await this.not());
    }
    return this.primary();
  }

  private async primary(): Promise<boolean> {
    const a = this.args;
    const word = a[this.i];
    if (word === undefined) throw new TestError('argument expected');
    if (word === '(') {
      this.i++;
      const value = await this.or();
      if (a[this.i] !== ')') throw new TestError("`)' expected");
      this.i++;
      return value;
    }
    if (BINARY.has(a[this.i + 1] ?? '') && this.i + 2 < a.length) {
      this.i += 3;
      return this.binary(word, a[this.i - 2]!, a[this.i - 1]!);
    }
    if (isUnaryOp(word) && this.i + 1 < a.length) {
      this.i += 2;
      return unaryTestIn(this.ctx.r, word, a[this.i - 1]!);
    }
    this.i++;
    return word !== '';
  }

  private async binary(a: Bytes, op: Bytes, b: Bytes): Promise<boolean> {
    switch (op) {
      case '=':
      case '==':
        return a === b;
      case '!=':
        return a !== b;
      case '<':
      case '>':
        return (await collate(this.ctx, a, b)) === op;
      case '-nt':
      case '-ot':
      case '-ef':
        return fileCompare(op, a, b, this.sh);
      default:
        return compareIntegers(op, integer(a), integer(b));
    }
  }
}

// test's integers: optional blanks and sign around decimal digits.
function integer(text: Bytes): bigint {
  const trimmed = text.trim();
  if (!/^[-+]?[0-9]+$/.test(trimmed)) throw new TestError(`${text}: integer expression expected`);
  return BigInt(trimmed);
}

export function compareIntegers(op: string, a: bigint, b: bigint): boolean {
  if (op === '-eq') return a === b;
  if (op === '-ne') return a !== b;
  if (op === '-lt') return a < b;
  if (op === '-le') return a <= b;
  if (op === '-gt') return a > b;
  return a >= b;
}

// How the locale orders two strings ('<', '>' or '='), by bash itself.
export async function collate(
  ctx: BuiltinContext | { r: BuiltinContext['r'] },
  a: Bytes,
  b: Bytes,
): Promise<string> {
  if (a === b) return '=';
  const ascii = /^[\x20-\x7e]*$/;
  const locale = ['LC_ALL', 'LC_COLLATE', 'LANG']
    .map((n) => ctx.r.sh.vars.get(n)?.value)
    .find((v) => v?.kind === 'scalar');
  const c = locale?.kind === 'scalar' ? locale.value : '';
  if (ascii.test(a) && ascii.test(b) && (c === '' || /^(C|POSIX|C\.UTF-?8)$/i.test(c)))
    return a < b ? '<' : '>';
  const state = ['LC_ALL', 'LC_CTYPE', 'LC_COLLATE', 'LANG'].map((name) => {
    const value = ctx.r.sh.vars.get(name)?.value;
    return value?.kind === 'scalar' ? `=${value.value}` : '';
  });
  const [answer] = await ctx.r.rt.oracle.ask('collate', [a, b, ...state]);
  return answer ?? '=';
}
