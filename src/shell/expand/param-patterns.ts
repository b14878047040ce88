import type { Word } from '../syntax/nodes.js';
import type { Bytes } from '../syntax/source.js';
import type { ExpanderApi } from './expander-api.js';
import { type Chunk, isLiteralPattern, literalOf, patternOf } from './fields.js';
import { inertPattern } from './oracle.js';
import { oracleState } from './oracle-state.js';
import type { Base } from './param-lookup.js';

type Replace = { all: boolean; anchor: '#' | '%' | null; with: Word | null };

// ${x#p} ${x##p} ${x%p} ${x%%p}, ${x/p/r} (and //, /#, /%), ${x^p} ${x^^p} ${x,p} ${x,,p}, ${x~p}
// ${x~~p}: applied to each value. Plain text patterns are done here; the others by bash's own
// matcher (the oracle).
export async function patternOps(
  ex: ExpanderApi,
  base: Base,
  op: string,
  word: Word,
  replace: Replace | null,
): Promise<Base> {
  if (!base.set) return base;
  const chunks = await ex.pattern(word);
  const replacement = replace?.with ? await ex.pattern(replace.with) : null;
  const items: Bytes[] = [];
  for (const item of base.items) items.push(await applyOne(ex, item, op, chunks, replace, replacement));
  return { ...base, items };
}

async function applyOne(
  ex: ExpanderApi,
  value: Bytes,
  op: string,
  chunks: Chunk[],
  replace: Replace | null,
  replacement: Chunk[] | null,
): Promise<Bytes> {
  if (replace) return replaceIn(ex, value, chunks, replace, replacement);
  if (/^[\^,~]/.test(op)) return caseOf(ex, value, op, chunks);
  const extglob = ex.env.shopt('extglob');
  if (isLiteralPattern(chunks, extglob)) return stripLiteral(value, op, literalOf(chunks));
  const pattern = patternOf(chunks, '', extglob);
  const [answer] = await ask(ex, 'strip', [value, ...oracleState(ex.env), op, pattern], [pattern]);
  return answer ?? value;
}

function stripLiteral(value: Bytes, op: string, text: Bytes): Bytes {
  if (op.startsWith('#')) return value.startsWith(text) ? value.slice(text.length) : value;
  return value.endsWith(text) ? value.slice(0, value.length - text.length) : value;
}

async function caseOf(ex: ExpanderApi, value: Bytes, op: string, chunks: Chunk[]): Promise<Bytes> {
  const pattern = patternOf(chunks, '', ex.env.shopt('extglob'));
  if (pattern === '' && /^[\x00-\x7f]*$/.test(value)) {
    if (op === '^^') return value.toUpperCase();
    if (op === ',,') return value.toLowerCase();
    if (op === '~~') return toggle(value);
    if (op === '^') return value.slice(0, 1).toUpperCase() + value.slice(1);
    if (op === '~') return toggle(value.slice(0, 1)) + value.slice(1);
    return value.slice(0, 1).toLowerCase() + value.slice(1);
  }
  const [answer] = await ask(ex, 'case', [value, ...oracleState(ex.env), op, pattern], [pattern]);
  return answer ?? value;
}

// ${x~~}: each letter to the other case.
function toggle(text: Bytes): Bytes {
  return text.replace(/[A-Za-z]/g, (c) => (c <= 'Z' ? c.toLowerCase() : c.toUpperCase()));
}

async function replaceIn(
  ex: ExpanderApi,
  value: Bytes,
  chunks: Chunk[],
  replace: Replace,
  replacement: Chunk[] | null,
): Promise<Bytes> {
  const op = replace.all ? '//' : replace.anchor ? `/${replace.anchor}` : '/';
  const withText = replacement ? literalOf(replacement) : '';
  // bash 5.2 replaces an unquoted & in the replacement by what matched (patsub_replacement, on
  // unless the text turns it off).
  const amp = ex.env.shopt('patsub_replacement') ? '&' : '';
  const plainWith =
    replacement === null || amp === '' || !replacement.some((c) => !c.quoted && c.text.includes('&'));
  const extglob = ex.env.shopt('extglob');
  if (isLiteralPattern(chunks, extglob) && plainWith && literalOf(chunks) !== '') {
    return replaceLiteral(value, literalOf(chunks), withText, replace);
  }
  const withPattern = replacement === null ? null : patternOf(replacement, amp);
  const pattern = patternOf(chunks, '', extglob);
  const args = [value, ...oracleState(ex.env), op, pattern, withPattern === null ? '-' : `=${withPattern}`];
  const [answer] = await ask(ex, 'subst', args, [pattern, (withPattern ?? '').replaceAll('&', '')]);
  return answer ?? value;
}

function replaceLiteral(value: Bytes, text: Bytes, withText: Bytes, replace: Replace): Bytes {
  if (replace.anchor === '#') return value.startsWith(text) ? withText + value.slice(text.length) : value;
  if (replace.anchor === '%')
    return value.endsWith(text) ? value.slice(0, value.length - text.length) + withText : value;
  if (replace.all) return value.split(text).join(withText);
  const at = value.indexOf(text);
  return at < 0 ? value : value.slice(0, at) + withText + value.slice(at + text.length);
}

// Every pattern checked once more before it reaches the oracle's eval.
async function ask(ex: ExpanderApi, op: string, args: Bytes[], patterns: string[]): Promise<Bytes[]> {
  for (const pattern of patterns) {
    if (!inertPattern(pattern))
      throw new Error(`safe-run: a pattern for the oracle is not inert: ${pattern}`);
  }
  return ex.env.oracle.ask(op, args);
}
