import type { ParamExp, Word } from '../syntax/nodes.js';
import type { Bytes } from '../syntax/source.js';

// [@] or [*]: every element.
export function isAllIndex(index: Word | null): boolean {
  const only = index?.parts.length === 1 ? index.parts[0]! : null;
  return only?.kind === 'lit' && (only.value === '@' || only.value === '*');
}

// The parameter as bash names it in a message: NAME or NAME[SUBSCRIPT] (as written).
export function nameOf(part: ParamExp): string {
  if (!part.index) return part.name;
  const text = part.index.parts.map((p) => (p.kind === 'lit' || p.kind === 'sq' ? p.value : '')).join('');
  return `${part.name}[${text}]`;
}

// The characters of a value: UTF-8 sequences in a UTF-8 locale (a byte that starts none is one
// character, as bash counts it), else bytes.
export function charsOf(text: Bytes, utf8: boolean): Bytes[] {
  if (!utf8) return [...text];
  const out: Bytes[] = [];
  let i = 0;
  while (i < text.length) {
    const lead = text.charCodeAt(i);
    const size = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    let ok = size > 1 && i + size <= text.length;
    for (let k = 1; ok && k < size; k++) ok = (text.charCodeAt(i + k) & 0xc0) === 0x80;
    const take = ok ? size : 1;
    out.push(text.slice(i, i + take));
    i += take;
  }
  return out;
}

// ${x:offset:length} on a string, bash's rules: a negative offset counts from the end (before the
// start: nothing), a negative length is an end counted from the end.
export function sliceText(
  text: Bytes,
  offset: number,
  length: number | null,
  utf8: boolean,
): Bytes | 'negative' {
  const chars = charsOf(text, utf8);
  let start = offset < 0 ? chars.length + offset : offset;
  if (start < 0 || start > chars.length) return '';
  start = Math.min(start, chars.length);
  let end = chars.length;
  if (length !== null) {
    end = length < 0 ? chars.length + length : start + length;
    if (end < start) return length < 0 ? 'negative' : '';
  }
  return chars.slice(start, Math.min(end, chars.length)).join('');
}

// The attribute letters ${x@a} shows, in bash's order.
export function attributeLetters(
  attrs: {
    array: 'indexed' | 'assoc' | null;
    integer: boolean;
    lower: boolean;
    nameref: boolean;
    readonly: boolean;
    upper: boolean;
    exported: boolean;
  },
  kind: string | null,
): string {
  let out = '';
  if (kind === 'indexed' || attrs.array === 'indexed') out += 'a';
  if (kind === 'assoc' || attrs.array === 'assoc') out += 'A';
  if (attrs.integer) out += 'i';
  if (attrs.nameref) out += 'n';
  if (attrs.readonly) out += 'r';
  if (attrs.exported) out += 'x';
  if (attrs.lower) out += 'l';
  if (attrs.upper) out += 'u';
  return out;
}
