import type { Bytes } from '../../syntax/source.js';
import type { BuiltinContext } from './context.js';

// What bash prints for a function is its body as its own printer formats it; safe-run does not
// format bodies, so a command that would print one is refused when reached.
export const FUNCTION_BODY = "prints a function's body as bash formats it, which safe-run does not do";

// declare -f / -F (typeset too): functions by name. -F names them (as `declare -f NAME` with -p or
// without names); -f would print their bodies. A name that is no function makes the status 1.
export async function declareFunctions(
  ctx: BuiltinContext,
  letters: Set<string>,
  names: { text: Bytes; assign: unknown }[],
): Promise<number> {
  const others = [...letters].filter((c) => c !== 'f' && c !== 'F' && c !== 'p');
  if (ctx.name !== 'declare' && ctx.name !== 'typeset') others.push(ctx.name);
  if (others.length > 0 || names.some((name) => name.assign !== null))
    ctx.refuse(
      "gives a function an attribute (bash's exported or read-only functions), which safe-run does not do",
    );
  const functions = ctx.sh.functions;
  const onlyNames = letters.has('F');
  const wanted = names.length > 0 ? names.map((name) => name.text) : [...functions.keys()].sort();
  if (!onlyNames && wanted.some((name) => functions.has(name))) ctx.refuse(FUNCTION_BODY);
  const long = letters.has('p') || names.length === 0;
  let status = 0;
  for (const name of wanted) {
    if (!functions.has(name)) status = 1;
    else await ctx.out(long ? `declare -f ${name}\n` : `${name}\n`);
  }
  return ctx.finish(status);
}
