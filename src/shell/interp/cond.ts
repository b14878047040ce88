import { ExpansionError } from '../expand/env.js';
import { oracleState } from '../expand/oracle-state.js';
import type { CondExpr, Word } from '../syntax/nodes.js';
import type { RunnerApi } from './api.js';
import { collate, compareIntegers } from './builtins/test.js';
import { matchesAny } from './case-match.js';
import { fileCompare, unaryTest } from './file-tests.js';

// [[ expression ]]: words neither split nor globbed; == and != match patterns, =~ extended regular
// expressions (by bash itself), < and > compare by the locale, -eq and the like evaluate arithmetic.
export async function evalCond(r: RunnerApi, expr: CondExpr): Promise<boolean> {
  switch (expr.kind) {
    case 'cond-and':
      return (await evalCond(r, expr.left)) && evalCond(r, expr.right);
    case 'cond-or':
      return (await evalCond(r, expr.left)) || evalCond(r, expr.right);
    case 'cond-not':
      return !(await evalCond(r, expr.expr));
    case 'cond-group':
      return evalCond(r, expr.expr);
    case 'cond-word':
      return (await r.ex.value(expr.word)) !== '';
    case 'cond-unary':
      return unaryTest(expr.op, await r.ex.value(expr.operand), r.sh);
    default:
      return binary(r, expr.op, expr.left, expr.right);
  }
}

async function binary(r: RunnerApi, op: string, leftWord: Word, rightWord: Word): Promise<boolean> {
  const left = await r.ex.value(leftWord);
  switch (op) {
    case '==':
    case '=':
      return matchesAny(r, left, [rightWord], true);
    case '!=':
      return !(await matchesAny(r, left, [rightWord], true));
    case '=~':
      return regex(r, left, rightWord);
    case '<':
    case '>':
      return (await collate({ r } as never, left, await r.ex.value(rightWord))) === op;
    case '-nt':
    case '-ot':
    case '-ef':
      return fileCompare(op, left, await r.ex.value(rightWord), r.sh);
    default: {
      const a = r.ex.evaluate(left);
      const b = r.ex.evaluate(await r.ex.value(rightWord));
      return compareIntegers(op, a, b);
    }
  }
}

const ERE_SPECIAL = /[\\.[\]()*+?{}|^$]/g;

// =~: quoted parts of the right side match as text, the rest as a regular expression; BASH_REMATCH
// gets the match and its groups. A bad expression is status 2.
async function regex(r: RunnerApi, value: string, word: Word): Promise<boolean> {
  const chunks = await r.ex.pattern(word);
  const re = chunks.map((c) => (c.quoted ? c.text.replace(ERE_SPECIAL, (m) => `\\${m}`) : c.text)).join('');
  const [status, ...groups] = await r.rt.oracle.ask('regex', [value, ...oracleState(r.ex.env), re]);
  if (status === '2') throw new ExpansionError(`[[: invalid regular expression`, 2, true);
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
