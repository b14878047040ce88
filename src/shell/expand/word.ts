import { pushAll } from '../../arrays.js';
import type { Word, WordPart } from '../syntax/nodes.js';
import type { Bytes } from '../syntax/source.js';
import { decodeAnsi } from './ansi.js';
import { evalArith } from './arith.js';
import { arithScope, expansionFailure, toTopLevel } from './arith-scope.js';
import { braceWords } from './brace-words.js';
import { Builder } from './builder.js';
import { ArithmeticError, type ExpandEnv, ExpansionError } from './env.js';
import type { ExpanderApi, LitStyle, PartContext } from './expander-api.js';
import { type Chunk, type Field, fieldText, hasGlob, splitFields } from './fields.js';
import { globField } from './glob.js';
import { literalChunks } from './literal-chunks.js';
import { isUtf8Locale } from './oracle-state.js';
import { expandParam } from './param-expand.js';
import { tildeChunk } from './tilde.js';

// Written text reads unquoted in a word (a backslash quotes any character), inside double quotes or
// arithmetic (\ quotes only $ ` " \), in a here-document body (only $ ` \), or unquoted in the word
// of ${x:-word} (then IFS splits it too, as bash does).

const WORD: PartContext = { style: 'word', quoted: false, tilde: 'start' };
const NO_TILDE = { tilde: 'none' as const };

function tildeEndsIn(part: WordPart, context: PartContext): boolean {
  if (part.kind !== 'lit') return true;
  return /\//.test(part.value) || (context.tilde === 'assignment' && part.value.includes(':'));
}

// Word expansion in bash's order: brace, tilde, parameter/arithmetic/command substitution (left to
// right, one pass), word splitting, pathname expansion, quote removal.
export class Expander implements ExpanderApi {
  constructor(readonly env: ExpandEnv) {}

  // A command's words: each may become several words, or none.
  async fields(words: readonly Word[]): Promise<Bytes[]> {
    const out: Bytes[] = [];
    for (const word of words) {
      for (const braced of braceWords(word)) pushAll(out, await this.one(braced));
    }
    return out;
  }

  private async one(word: Word): Promise<Bytes[]> {
    const first = word.parts[0];
    const like = first?.kind === 'lit' && /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(first.value);
    const built = await this.build(
      word.parts,
      like ? { ...WORD, tilde: 'assignment', assignmentLike: true } : WORD,
    );
    const split = splitFields(built, this.ifs(), isUtf8Locale(this.env));
    const out: Bytes[] = [];
    for (const field of split) pushAll(out, await this.glob(field));
    return out;
  }

  async glob(field: Field): Promise<Bytes[]> {
    if (this.env.noglob || !hasGlob(field, this.env.shopt('extglob'))) return [fieldText(field)];
    return globField(field, this.env);
  }

  // One value, neither split nor globbed (an assignment, a case word, a here-string): "$@" joined by
  // spaces. An array's subscript has no tilde expansion (m[~] is the key ~).
  async value(word: Word, { assignment = false, subscript = false } = {}): Promise<Bytes> {
    const tilde = subscript ? 'none' : assignment ? 'assignment' : 'start';
    const fields = await this.build(word.parts, { ...WORD, tilde, single: true });
    return fields.map(fieldText).join(' ');
  }

  // A pattern (case, [[ == ]], ${x#pattern}): its text with which parts are quoted.
  async pattern(word: Word, style: LitStyle = 'word'): Promise<Chunk[]> {
    const fields = await this.build(word.parts, { style, quoted: style !== 'word', tilde: 'start' });
    return fields.flatMap((field, i) =>
      i === 0 ? field.chunks : [{ text: ' ', quoted: true, split: false }, ...field.chunks],
    );
  }

  // The text of an arithmetic expression once its expansions are done, and its value.
  async arith(word: Word): Promise<bigint> {
    const text = await this.quotedText(word.parts, 'dq');
    return this.evaluate(text);
  }

  // $((...)) and a ${x:off:len} offset: an error of arithmetic's own discards the line bash read it
  // on (bash goes on with the next one, under set -e too); other errors end the shell.
  async arithExpansion(word: Word): Promise<bigint> {
    try {
      return await this.arith(word);
    } catch (error) {
      if (error instanceof ArithmeticError) throw new ExpansionError(error.message, error.status, 'arith');
      throw error;
    }
  }

  subscript(text: Bytes): number {
    return Number(toTopLevel(() => this.evaluate(text)));
  }

  evaluate(text: Bytes): bigint {
    try {
      return evalArith(text, arithScope(this.env));
    } catch (error) {
      throw expansionFailure(error);
    }
  }

  // A here-document's body, or any text read in one quoted style.
  async quotedText(parts: readonly WordPart[], style: LitStyle): Promise<Bytes> {
    const fields = await this.build(parts, { style, quoted: true, tilde: 'none' });
    return fields.map(fieldText).join(' ');
  }

  ifs(): Bytes | null {
    const ifs = this.env.vars.get('IFS');
    return ifs?.value?.kind === 'scalar' ? ifs.value.value : ifs ? null : null;
  }

  // Expands parts into words (several only through "$@" and arrays).
  async build(parts: readonly WordPart[], context: PartContext): Promise<Field[]> {
    const b = new Builder();
    for (const [i, part] of parts.entries()) {
      // A tilde prefix runs to the first unquoted /: one that reaches into the next part (quoted
      // text, an expansion) is not expanded.
      const tilde = i === 0 && (parts.length === 1 || tildeEndsIn(part, context)) ? context : NO_TILDE;
      await this.part(part, b, { ...context, tilde: tilde.tilde }, i === 0);
    }
    return b.fields;
  }

  async part(part: WordPart, b: Builder, context: PartContext, first: boolean): Promise<void> {
    const { quoted } = context;
    switch (part.kind) {
      case 'lit':
        return this.literal(part.value, b, context, first);
      case 'sq':
        b.add(part.value, true, false);
        return b.keep();
      case 'ansi':
        b.add(decodeAnsi(part.raw, this.env.ansiRead(part) ?? isUtf8Locale(this.env)), true, false);
        return b.keep();
      case 'dq':
        return this.doubleQuoted(part.parts, b);
      case 'param':
        return expandParam(this, part, b, context);
      case 'cmdsubst':
        return this.substitution(await this.env.substitute(part), b, quoted);
      case 'arith-exp': {
        const value = String(await this.arithExpansion(part.expr));
        return b.add(value, quoted, !quoted);
      }
      case 'procsubst':
        return b.add(await this.env.processSubstitute(part), true, false);
      default:
        return b.add(part.kind === 'extglob' ? part.pattern : '', quoted, false);
    }
  }

  // "...": everything inside is quoted; the word stays even when it is empty, unless the only thing
  // in it was a "$@" with no values (bash drops the word then).
  private async doubleQuoted(parts: readonly WordPart[], b: Builder): Promise<void> {
    const inner = new Builder();
    const context: PartContext = { style: 'dq', quoted: true, tilde: 'none' };
    for (const part of parts) await this.part(part, inner, context, false);
    const empty = inner.fields.length === 1 && inner.current.chunks.every((chunk) => chunk.text === '');
    const onlyEmptyAt = empty && parts.some(isAtForm) && !inner.current.kept;
    b.addFields(inner.fields);
    if (onlyEmptyAt) return;
    // An empty "" is a quoted part all the same: next to an unquoted expansion's IFS white space it
    // is a word of its own (`""$v` with v=' a' gives '' and a), as bash's quoted null is.
    if (empty) b.add('', true, false);
    b.keep();
  }

  private substitution(output: Bytes, b: Builder, quoted: boolean): void {
    let text = output;
    if (text.includes('\0')) {
      this.env.warn('warning: command substitution: ignored null byte in input');
      text = text.replaceAll('\0', '');
    }
    b.add(text.replace(/\n+$/, ''), quoted, !quoted);
  }

  private literal(value: Bytes, b: Builder, context: PartContext, first: boolean): void {
    let text = value;
    if (context.assignmentLike && first) {
      const name = text.slice(0, text.indexOf('=') + 1);
      b.addChunk({ text: name, quoted: false, split: false });
      text = text.slice(name.length);
    }
    if (context.tilde !== 'none' && first && context.style === 'word' && text.startsWith('~')) {
      const tilde = tildeChunk(text, context.tilde === 'assignment', this.env);
      if (tilde) {
        b.addChunk(tilde.chunk);
        text = tilde.rest;
      }
    }
    for (const chunk of literalChunks(text, context)) b.addChunk(chunk);
    if (context.tilde === 'assignment' && context.style === 'word') this.afterColons(b);
  }

  // In an assignment, ~ after an unquoted : expands too (PATH=~/bin:~/sbin).
  private afterColons(b: Builder): void {
    const chunks = b.current.chunks;
    const last = chunks.at(-1);
    if (!last || last.quoted || !last.text.includes(':~')) return;
    const pieces = last.text.split(':');
    chunks.pop();
    pieces.forEach((piece, i) => {
      if (i > 0) chunks.push({ text: ':', quoted: false, split: false });
      const tilde = i > 0 && piece.startsWith('~') ? tildeChunk(piece, true, this.env) : null;
      if (tilde) chunks.push(tilde.chunk, { text: tilde.rest, quoted: false, split: false });
      else chunks.push({ text: piece, quoted: false, split: false });
    });
  }
}

function isAtForm(part: WordPart): boolean {
  if (part.kind !== 'param') return false;
  if (part.name === '@' && !part.length) return true;
  const only = part.index?.parts.length === 1 ? part.index.parts[0]! : null;
  return only?.kind === 'lit' && only.value === '@' && !part.length;
}
