import { arrayKind, namesVariable, type Variable } from '../../expand/variable.js';
import type { Variables } from '../../expand/vars.js';
import { VarError } from '../../expand/vars.js';
import type { Bytes } from '../../syntax/source.js';
import type { BuiltinContext } from './context.js';

// declare -n NAME=value: what bash refuses before it looks at any variable (status 1): NAME with a
// subscript, a value naming NAME itself (in a function only a warning), a value that names no
// variable (an empty one is not a valid identifier).
export async function checkNamerefWord(
  ctx: BuiltinContext,
  name: string,
  value: { text: Bytes; append: boolean; index: Bytes | null } | null,
): Promise<void> {
  if (value?.index != null)
    throw new VarError(`${name}[${value.index}]: reference variable cannot be an array`);
  if (!value || value.append) return;
  const { text } = value;
  if (text === name || (text.startsWith(`${name}[`) && namesVariable(text, true))) {
    if (ctx.sh.funcNames.length === 0)
      throw new VarError(`${name}: nameref variable self references not allowed`);
    await ctx.fail(`warning: ${name}: circular name reference`);
  }
  if (text === '') throw new VarError("`': not a valid identifier");
  if (!namesVariable(text, true)) throw new VarError(`\`${text}': invalid variable name for name reference`);
}

// declare -n on a variable there is: not an array, not a string that names no variable (when no
// value is given), not a read-only one.
export function checkNamerefTarget(variable: Variable, name: string, assigns: boolean): void {
  if (arrayKind(variable)) throw new VarError(`${name}: reference variable cannot be an array`);
  const value = variable.value;
  if (!variable.attrs.nameref && !assigns && value?.kind === 'scalar' && !namesVariable(value.value, true))
    throw new VarError(`\`${value.value}': invalid variable name for name reference`);
  if (variable.attrs.readonly) throw new VarError(`${name}: readonly variable`);
}

// The last nameref of the chain from `name` (declare +n turns that one back into a variable), or
// undefined when `name` is none.
export function lastNameref(vars: Variables, name: string): Variable | undefined {
  const last = lastNamerefName(vars, name);
  return last === undefined ? undefined : vars.getRaw(last);
}

// Its name.
export function lastNamerefName(vars: Variables, name: string): string | undefined {
  let found: string | undefined;
  let current = name;
  for (let hops = 0; hops < 8 && vars.getRaw(current)?.attrs.nameref; hops++) {
    found = current;
    const value = vars.getRaw(current)!.value;
    if (value?.kind !== 'scalar' || value.value === '') break;
    current = value.value;
  }
  return found;
}
