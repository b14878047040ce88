import { ArithmeticError } from '../expand/env.js';
import type { Chunk } from '../expand/fields.js';
import { oracleState } from '../expand/oracle-state.js';
import type { CondExpr } from '../syntax/nodes.js';
import type { RunnerApi } from './api.js';
import { collate, compareIntegers } from './builtins/test.js';
import { matchesExpanded } from './case-match.js';
import { fileCompare, unaryTestIn } from './file-tests.js';
import { traceText } from './trace.js';

// [[ expression ]]: words neither split nor globbed; == and != match patterns, =~ extended regular
// expressions (by bash itself), < and > compare by the locale, -eq and the like evaluate arithmetic.
// Under set -x each test is traced as bash traces it: with a `!` when an odd number of them stand
// right before it (a group's is not shown). The status is bash's: 0 true, 1 false, 2 for a regular
// expression that does not compile (false to && and ||, true under !, said by no message).
export async function evalCond(r: RunnerApi, expr: CondExpr, inverted = false): Promise<number> {
  switch (expr.kind) {
    case 'cond-and': {
      const left = await evalCond(r, expr.left);
      return left === 0 ? evalCond(r, expr.right) : left;
    }
    case 'cond-or': {
      const left = await evalCond(r, expr.left);
      return left === 0 ? 0 : evalCond(r, expr.right);
    }
    case 'cond-not':
      return (await evalCond(r, expr.expr, !inverted)) === 0 ? 1 : 0;
    case 'cond-group':
      return evalCond(r, expr.expr);
    default:
      return test(r, expr, inverted);
  }
}

type Test = Extract<CondExpr, { kind: 'cond-word' | 'cond-unary' | 'cond-binary' }>;

async function test(r: RunnerApi, expr: Test, inverted: boolean): Promise<number> {
  if (expr.kind === 'cond-binary') {
    const result = await binary(r, expr, inverted);
    return result === 'bad regex' ? 2 : result ? 0 : 1;
  }
  const value = await r.ex.value(expr.kind === 'cond-word' ? expr.word : expr.operand);
  const op = expr.kind === 'cond-word' ? '-n' : expr.op;
  await traceCond(r, inverted, [op, value]);
  return (expr.kind === 'cond-word' ? value !== '' : await unaryTestIn(r, op, value)) ? 0 : 1;
}

async function binary(
  r: RunnerApi,
  { op, left: leftWord, right: rightWord }: Extract<Test, { kind: 'cond-binary' }>,
  inverted: boolean,
): Promise<boolean | 'bad regex'> {
  const left = await r.ex.value(leftWord);
  if (op === '==' || op === '=' || op === '!=' || op === '=~') {
    const chunks = await r.ex.pattern(rightWord);
    await traceCond(r, inverted, [left, op, op === '=~' ? regexText(chunks) : globText(chunks)]);
    if (op === '=~') return regex(r, left, chunks);
    const matched = await matchesExpanded(r, left, [chunks], true);
    return op === '!=' ? !matched : matched;
  }
  const right = await r.ex.value(rightWord);
  await traceCond(r, inverted, [left, op, right]);
  switch (op) {
    case '<':
    case '>':
      return (await collate({ r } as never, left, right)) === op;
    case '-nt':
    case '-ot':
    case '-ef':
      return fileCompare(op, left, right, r.sh);
    default:
      return integers(r, op, left, right);
  }
}

// -eq and the like: both sides as arithmetic. An error there makes the test false, said as bash
// says it ("[[: 1/0: division by 0 ..."), and the shell goes on.
async function integers(r: RunnerApi, op: string, left: string, right: string): Promise<boolean> {
  try {
    return compareIntegers(op, r.ex.evaluate(left), r.ex.evaluate(right));
  } catch (error) {
    if (!(error instanceof ArithmeticError)) throw error;
    await r.error(error.plain ? error.message : `[[: ${error.message}`);
    return false;
  }
}

// bash's trace of one test: its operands as they are (an empty one as ''), a pattern's quoted
// characters each after a backslash.
async function traceCond(r: RunnerApi, inverted: boolean, parts: readonly string[]): Promise<void> {
  if (!r.sh.option('xtrace')) return;
  const shown = parts.map((part) => (part === '' ? "''" : part)).join(' ');
  await traceText(r, `[[ ${inverted ? '! ' : ''}${shown} ]]`);
}

function globText(chunks: readonly Chunk[]): string {
  return chunks.map((c) => (c.quoted ? [...c.text].map((ch) => `\\${ch}`).join('') : c.text)).join('');
}

const ERE_SPECIAL = /[\\.[\]()*+?{}|^$]/g;

// =~: quoted parts of the right side match as text, the rest as a regular expression; BASH_REMATCH
// gets the match and its groups.
function regexText(chunks: readonly Chunk[]): string {
  return chunks.map((c) => (c.quoted ? c.text.replace(ERE_SPECIAL, (m) => `\\${m}`) : c.text)).join('');
}

async function regex(r: RunnerApi, value: string, chunks: readonly Chunk[]): Promise<boolean | 'bad regex'> {
  const re = regexText(chunks);
  const [status, ...groups] = await r.rt.oracle.ask('regex', [value, ...oracleState(r.ex.env), re]);
  if (status === '2') return 'bad regex';
  if (status === '0')
    r.sh.vars.assignArray(
      'BASH_REMATCH',
      groups.map((g) => ({ key: null, value: g })),
      false,
      'indexed',
    );
  else r.sh.vars.assignArray('BASH_REMATCH', [], false, 'indexed');
  return status === '0';
}
