import { ExpansionError } from '../expand/env.js';
import { isUtf8Locale } from '../expand/oracle-state.js';
import type { ArrayElem, Assign, Span, Word } from '../syntax/nodes.js';
import { parsePromptText } from '../syntax/parse.js';
import { type Bytes, fromBytes } from '../syntax/source.js';
import type { RunnerApi } from './api.js';
import { declaredArray } from './declared-arrays.js';
import { writeTo } from './output.js';
import { traceQuote } from './trace-quote.js';
import { xtraceTarget } from './xtrace-fd.js';

// set -x: what is about to run on stderr, after PS4 ("+ "), as bash prints it: a command's words
// quoted where bash quotes them, each assignment on a line of its own, and the heads of compound
// commands (for, case, ((, arithmetic for) as written.
export async function traceCommand(r: RunnerApi, args: readonly Bytes[]): Promise<void> {
  if (r.sh.option('xtrace')) await traceText(r, args.map((arg) => traceQuote(arg, utf8(r))).join(' '));
}

// export and readonly (not declare, local, typeset) trace each NAME=value they were given again, as
// bash does, after the command.
export async function traceDeclared(
  r: RunnerApi,
  args: readonly Bytes[],
  decl: readonly (Assign | null)[] | null,
): Promise<void> {
  if (!r.sh.option('xtrace') || !decl || (args[0] !== 'export' && args[0] !== 'readonly')) return;
  for (const [i, assign] of decl.entries()) {
    const arg = args[i];
    if (!assign || assign.array || arg === undefined) continue;
    const at = arg.indexOf('=');
    const value = arg.slice(at + 1);
    await traceText(r, `${arg.slice(0, at + 1)}${value === '' ? '' : traceQuote(value, utf8(r))}`);
  }
}

// A declaration builtin's NAME=( ... ) arguments, before its own line, as bash shows them: each
// expanded element in single quotes, a key too (`z=(['3']='x' 'a b')`).
export async function traceDeclaredArrays(
  r: RunnerApi,
  decl: readonly (Assign | null)[] | null,
): Promise<void> {
  if (!r.sh.option('xtrace') || !decl) return;
  const quote = (text: Bytes) => `'${text.replaceAll("'", `'\\''`)}'`;
  for (const assign of decl) {
    const raw = assign?.array ? declaredArray(assign) : undefined;
    if (!assign || raw === undefined) continue;
    const elements = raw.map(({ key, value }) => (key === null ? '' : `[${quote(key)}]=`) + quote(value));
    await traceText(r, `${assign.name}${assign.append ? '+=' : '='}(${elements.join(' ')})`);
  }
}

// NAME=value (the value quoted), NAME[subscript]=value and NAME=(elements) (both as written).
export async function traceAssign(r: RunnerApi, assign: Assign, value: Bytes | null): Promise<void> {
  if (!r.sh.option('xtrace')) return;
  const op = assign.append ? '+=' : '=';
  const index = assign.index ? `[${written(r, assign.index)}]` : '';
  const rhs = assign.array
    ? `(${assign.array.map((element: ArrayElem) => written(r, element)).join(' ')})`
    : value === '' || value === null
      ? ''
      : traceQuote(value, utf8(r));
  await traceText(r, `${assign.name}${index}${op}${rhs}`);
}

// `for NAME in WORDS` (as written; `"$@"` without `in`), before each pass.
export async function traceFor(r: RunnerApi, name: string, items: readonly Word[] | null): Promise<void> {
  if (!r.sh.option('xtrace')) return;
  const words = items === null ? '"$@"' : items.map((item) => written(r, item)).join(' ');
  await traceText(r, `for ${name} in ${words}`);
}

// `case WORD in` (as written).
export async function traceCase(r: RunnerApi, word: Word): Promise<void> {
  if (r.sh.option('xtrace')) await traceText(r, `case ${written(r, word)} in`);
}

// (( EXPR )): bash prints the text between the parentheses as written, inside "(( " and " ))"; an
// arithmetic for's parts without their leading blanks, an empty one as 1.
export async function traceArith(r: RunnerApi, inner: string): Promise<void> {
  if (r.sh.option('xtrace')) await traceText(r, `(( ${inner} ))`);
}

export function arithForPart(r: RunnerApi, part: Word | null): string {
  return part === null ? '1' : written(r, part).trimStart() || '1';
}

// The source text of a node, untrimmed.
export function written(r: RunnerApi, node: Span): string {
  return fromBytes(r.place.source.slice(node.start.offset, node.end.offset));
}

export async function traceText(r: RunnerApi, text: string): Promise<void> {
  const prefix = await ps4(r);
  const level = prefix.slice(0, 1).repeat(r.sh.traceDepth);
  await writeTo(r.rt, r.sh.fds.get(xtraceTarget(r)), `${level}${prefix}${text}\n`);
}

// PS4 as bash prints it: expanded each time ($LINENO, ${FUNCNAME[0]}, $(...), whose own commands are
// not traced); an expansion that fails is said, and the text is printed as it is.
async function ps4(r: RunnerApi): Promise<string> {
  const ps4 = r.sh.vars.get('PS4');
  const raw = ps4?.value?.kind === 'scalar' ? ps4.value.value : '+ ';
  const word = /[$`]/.test(raw) ? parsePromptText(raw) : null;
  if (word === null) return raw;
  const tracing = r.sh.option('xtrace');
  r.sh.setOption('xtrace', false);
  try {
    return await r.ex.quotedText(word.parts, 'heredoc');
  } catch (error) {
    if (!(error instanceof ExpansionError)) throw error;
    await r.error(error.message);
    return raw;
  } finally {
    r.sh.setOption('xtrace', tracing);
  }
}

const utf8 = (r: RunnerApi): boolean => isUtf8Locale(r.ex.env);
