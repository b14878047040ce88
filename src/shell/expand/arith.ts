import { type Level, limitMessage, MAX_DEPTH } from './arith-depth.js';
import { ArithError, ArithLexer, type ArithToken } from './arith-lexer.js';
import { ASSIGN_OPS, binaryOp, LEVELS, truth, wrap } from './arith-ops.js';

// What arithmetic reads and writes: variables (and array elements) as text.
export interface ArithScope {
  read(name: string, subscript: string | null): string | null;
  write(name: string, subscript: string | null, value: bigint): void;
}

// An arithmetic error as bash prints it: "EXPR: WHY (error token is "REST")".
export class ArithEvalError extends Error {}

// Evaluates bash arithmetic (after the text was expanded): 64-bit signed integers that wrap, bash's
// operators and precedence, variables whose values are expressions themselves, lazy && || and ?:.
// `trail`: each level's expression, and where the name whose value is evaluated below it starts.
export function evalArith(text: string, scope: ArithScope, depth = 0, trail: Level[] = []): bigint {
  trail.length = depth;
  trail.push({ text, at: 0 });
  const evaluator = new Evaluator(text, scope, depth, trail);
  try {
    return evaluator.run();
  } catch (error) {
    if (error instanceof ArithError) {
      const expression = text.slice(0, error.cut).trimStart();
      throw new ArithEvalError(`${expression}: ${error.why} (error token is "${error.token}")`);
    }
    // Variables that name each other, deeper than the stack allows before bash's own limit.
    if (error instanceof RangeError && depth === 0) throw new ArithEvalError(limitMessage(trail));
    throw error;
  }
}

class Evaluator {
  private readonly lex: ArithLexer;
  private noeval = 0;

  constructor(
    text: string,
    private readonly scope: ArithScope,
    private readonly depth: number,
    private readonly trail: Level[],
  ) {
    this.lex = new ArithLexer(text);
  }

  // Read through a function: TypeScript narrows a getter's value across next() calls.
  private get tok(): ArithToken {
    return this.current();
  }

  private current(): ArithToken {
    return this.lex.token;
  }

  private isOp(op: string): boolean {
    return this.tok.kind === 'op' && this.tok.op === op;
  }

  run(): bigint {
    this.lex.next();
    if (this.current().kind === 'end') return 0n;
    const value = this.comma();
    if (this.current().kind !== 'end') this.lex.fail('syntax error in expression');
    return value;
  }

  private comma(): bigint {
    let value = this.assign();
    while (this.isOp(',')) {
      this.lex.next();
      value = this.assign();
    }
    return value;
  }

  private assign(): bigint {
    const target = this.lvalueAhead();
    if (target) {
      this.lex.next();
      const op = (this.tok as { op: string }).op;
      // bash reads the variable of `a += ...` before the right side runs: `a=1; (( a += (a=5) ))` is 6.
      const before = op !== '=' && !this.noeval ? this.valueOf(target.name, target.subscript) : 0n;
      this.lex.next();
      const right = this.assign();
      if (this.noeval) return right;
      let value = right;
      if (op !== '=') value = this.binary(op.slice(0, -1), before, right);
      this.scope.write(target.name, target.subscript, value);
      return value;
    }
    const value = this.cond();
    if (this.tok.kind === 'op' && ASSIGN_OPS.has(this.tok.op))
      this.lex.fail('attempted assignment to non-variable');
    return value;
  }

  // An identifier followed by an assignment operator, without consuming anything else.
  private lvalueAhead(): { name: string; subscript: string | null } | null {
    const tok = this.tok;
    if (tok.kind !== 'id') return null;
    const saved = { tp: this.lex.tp, lasttp: this.lex.lasttp };
    const after = this.lex.next();
    const isAssign = after.kind === 'op' && ASSIGN_OPS.has(after.op);
    this.lex.tp = saved.tp;
    this.lex.lasttp = saved.lasttp;
    this.lex.token = tok;
    return isAssign ? { name: tok.name, subscript: tok.subscript } : null;
  }

  private cond(): bigint {
    const test = this.lor();
    if (!this.isOp('?')) return test;
    this.lex.next();
    if (this.current().kind === 'end' || this.isOp(':')) this.lex.fail('expression expected');
    const yes = this.lazily(test === 0n, () => this.comma());
    if (!this.isOp(':')) this.lex.fail("`:' expected for conditional expression");
    this.lex.next();
    if (this.current().kind === 'end') this.lex.fail('expression expected');
    const no = this.lazily(test !== 0n, () => this.cond());
    return test !== 0n ? yes : no;
  }

  private lazily(skip: boolean, read: () => bigint): bigint {
    if (skip) this.noeval++;
    try {
      return read();
    } finally {
      if (skip) this.noeval--;
    }
  }

  private lor(): bigint {
    let value = this.land();
    while (this.isOp('||')) {
      this.lex.next();
      const right = this.lazily(value !== 0n, () => this.land());
      value = value !== 0n ? 1n : truth(right);
    }
    return value;
  }

  private land(): bigint {
    let value = this.chain(0);
    while (this.isOp('&&')) {
      this.lex.next();
      const right = this.lazily(value === 0n, () => this.chain(0));
      value = value === 0n ? 0n : truth(right);
    }
    return value;
  }

  private chain(level: number): bigint {
    if (level === LEVELS.length) return this.power();
    const ops = LEVELS[level]!;
    let value = this.chain(level + 1);
    while (this.tok.kind === 'op' && ops.includes(this.tok.op)) {
      const op = this.tok.op;
      const at = this.lex.tp;
      this.lex.next();
      const right = this.chain(level + 1);
      if ((op === '/' || op === '%') && right === 0n && !this.noeval)
        this.lex.fail('division by 0', skipBlank(this.lex.text, at));
      value = this.noeval ? 0n : this.binary(op, value, right);
    }
    return value;
  }

  private power(): bigint {
    const base = this.unary();
    if (!this.isOp('**')) return base;
    this.lex.next();
    const exponent = this.power();
    if (this.noeval) return 0n;
    // (bash's error token: the one read after the exponent, its last at the end.)
    if (exponent < 0n) this.lex.fail('exponent less than 0');
    return this.binary('**', base, exponent);
  }

  private unary(): bigint {
    const tok = this.tok;
    if (tok.kind === 'op' && ['!', '~', '-', '+'].includes(tok.op)) {
      this.lex.next();
      const value = this.unary();
      if (tok.op === '!') return value === 0n ? 1n : 0n;
      if (tok.op === '~') return wrap(~value);
      return tok.op === '-' ? wrap(-value) : value;
    }
    return this.operand();
  }

  private operand(): bigint {
    const tok = this.tok;
    if (tok.kind === 'op' && (tok.op === '++' || tok.op === '--')) {
      const target = this.lex.next();
      if (target.kind !== 'id') this.lex.fail('identifier expected after pre-increment or pre-decrement');
      const value = wrap(this.valueOf(target.name, target.subscript) + (tok.op === '++' ? 1n : -1n));
      if (!this.noeval) this.scope.write(target.name, target.subscript, value);
      const after = this.lex.next();
      // (++x++: bash reads the second ++ as a step of what is no longer a name)
      if (after.kind === 'op' && (after.op === '++' || after.op === '--'))
        this.lex.fail(`${after.op}: assignment requires lvalue`);
      return value;
    }
    if (tok.kind === 'op' && tok.op === '(') {
      this.lex.next();
      const value = this.comma();
      if (!this.isOp(')')) this.lex.fail("missing `)'");
      this.lex.next();
      return value;
    }
    if (tok.kind === 'num') {
      this.lex.next();
      return tok.value;
    }
    if (tok.kind === 'id') {
      const value = this.valueOf(tok.name, tok.subscript);
      this.lex.next();
      if (this.isOp('++') || this.isOp('--')) {
        const step = this.isOp('++') ? 1n : -1n;
        if (!this.noeval) this.scope.write(tok.name, tok.subscript, wrap(value + step));
        this.lex.next();
      }
      return value;
    }
    return this.lex.fail('syntax error: operand expected');
  }

  // A variable's value as a number: its text evaluated as an expression of its own (0 when unset or
  // empty).
  private valueOf(name: string, subscript: string | null): bigint {
    if (this.noeval) return 0n;
    const text = this.scope.read(name, subscript);
    if (text === null || text.trim() === '') return 0n;
    if (/^[0-9]+$/.test(text) && !text.startsWith('0')) return wrap(BigInt(text));
    if (this.depth >= MAX_DEPTH) this.lex.fail('expression recursion level exceeded');
    this.trail[this.depth]!.at = this.lex.lasttp;
    return evalArith(text, this.scope, this.depth + 1, this.trail);
  }

  private binary(op: string, a: bigint, b: bigint): bigint {
    return binaryOp(op, a, b, (why) => this.lex.fail(why));
  }
}

function skipBlank(text: string, at: number): number {
  let i = at;
  while (i < text.length && ' \t\n'.includes(text[i]!)) i++;
  return i;
}
