import { ArithEvalError, type ArithScope, evalArith } from './arith.js';
import { ArithmeticError, type ExpandEnv, ExpansionError, TopLevelError } from './env.js';
import { lastIndex, scalarOf } from './variable.js';
import { VarError } from './vars.js';

// Arithmetic's view of the shell's variables: a[i] of an indexed array is evaluated as arithmetic, of
// an associative one taken as a key; values read are evaluated by the caller. Under set -u a name
// with no value at all is the error that ends the shell (an array's missing element is 0).
export function arithScope(env: ExpandEnv): ArithScope {
  const scope: ArithScope = {
    read(name, subscript) {
      const dynamic = subscript === null ? env.dynamic(name) : undefined;
      if (dynamic !== undefined) return dynamic;
      const ref = subscript === null ? env.vars.elementRef(name) : null;
      if (ref) return scope.read(ref.name, ref.subscript);
      const variable = env.vars.get(name);
      if (env.nounset && !variable?.value) throw unbound(env, name);
      if (subscript === null) return scalarOf(variable);
      const value = variable?.value;
      if (value?.kind === 'assoc') return value.items.get(subscript) ?? null;
      if (variable?.attrs.array === 'assoc') return null;
      // (Evaluated for an unset name too.)
      const index = Number(toTopLevel(() => evalArith(subscript, scope)));
      // A negative one counts back from the end of an indexed array only.
      const at = index < 0 && value?.kind === 'indexed' ? value.items.maxIndex() + 1 + index : index;
      if (at < 0) env.warn(`${name}: bad array subscript`);
      if (!value || at < 0) return null;
      if (value.kind === 'scalar') return at === 0 ? value.value : null;
      return value.items.get(at) ?? null;
    },
    write(name, subscript, number) {
      try {
        if (subscript === null) return env.vars.assign(name, String(number));
        const variable = env.vars.get(name);
        const assoc = variable?.value?.kind === 'assoc' || variable?.attrs.array === 'assoc';
        let index: number | string = assoc
          ? subscript
          : Number(toTopLevel(() => evalArith(subscript, scope)));
        // A negative subscript counts back from the end (a scalar is element 0); before the first,
        // bash says so and assigns nothing (the expression keeps its value).
        if (typeof index === 'number' && index < 0) {
          index += lastIndex(variable) + 1;
          if (index < 0) return env.warn(`${name}[${subscript}]: bad array subscript`);
        }
        env.vars.assign(name, String(number), { index });
      } catch (error) {
        if (error instanceof VarError) throw new ArithmeticError(error.message, true);
        throw error;
      }
    },
  };
  return scope;
}

// (Named as the nameref it is read through leads.)
function unbound(env: ExpandEnv, name: string): ExpansionError {
  let shown = name;
  try {
    shown = env.vars.resolve(name);
  } catch {}
  return new ExpansionError(`${shown}: unbound variable`, 127);
}

// An arithmetic error becomes the expansion error bash stops with.
export function expansionFailure(error: unknown): unknown {
  if (error instanceof ArithEvalError) return new ArithmeticError(error.message);
  return error;
}

// Arithmetic whose error leaves for bash's top level: an array's subscript, an integer variable's value.
export function toTopLevel(evaluate: () => bigint, value = false): bigint {
  try {
    return evaluate();
  } catch (error) {
    if (error instanceof ArithEvalError || error instanceof ArithmeticError)
      throw new TopLevelError(error.message, value);
    throw error;
  }
}
