import type { Assign, Script } from '../../syntax/nodes.js';
import { parseScript } from '../../syntax/parse.js';
import type { Bytes } from '../../syntax/source.js';
import type { BuiltinContext } from './context.js';

// declare -a NAME='(1 2)' (or NAME+=, or a value an expansion gave): a value in parentheses given to
// an array (one already, or made one by -a or -A) is read as NAME=(1 2) would be written, its words
// expanded then, as bash does. Null when the value is not such a list. One with expansions of its own
// (declare -a x='($y)') is refused: safe-run checks only the text's own words for what it runs.
export function quotedList(ctx: BuiltinContext, name: string, text: Bytes, append: boolean): Assign | null {
  if (!text.startsWith('(') || !text.endsWith(')')) return null;
  if (/[$`]|[<>]\(/.test(text))
    ctx.refuse(`reads the value ${text} as an array's list, whose expansions bash makes then`);
  let script: Script;
  try {
    script = parseScript(`${name}${append ? '+' : ''}=${text}`, { bytes: true });
  } catch {
    return null;
  }
  const only = script.stmts.length === 1 ? script.stmts[0]!.body : null;
  const command =
    only?.rest.length === 0 && only.first.commands.length === 1 ? only.first.commands[0]! : null;
  if (command?.kind !== 'simple' || command.words.length > 0 || command.redirects.length > 0) return null;
  const assign = command.assigns.length === 1 ? command.assigns[0]! : null;
  if (!assign?.array) return null;
  return assign;
}
