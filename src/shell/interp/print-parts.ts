import type { Span, Word, WordPart } from '../syntax/nodes.js';
import type { Bytes } from '../syntax/source.js';
import { walkWord } from '../syntax/walk.js';

// The small pieces of command-text.ts's printer of commands as bash prints them back. null: a text
// not printed as bash prints it.
export type Printed = Bytes | null;

export function quoted(part: WordPart): boolean {
  let found = false;
  walkWord(
    { parts: [part], start: part.start, end: part.end },
    {
      part: (inner) => {
        if (inner.kind === 'ansi' || (inner.kind === 'dq' && inner.locale)) found = true;
      },
    },
  );
  return found;
}

// The parts of the words inside ${...} or $(( )), in the order written.
export function operandParts(part: WordPart): WordPart[] {
  if (part.kind === 'arith-exp') return part.expr.parts;
  if (part.kind !== 'param') return [];
  const words = [part.index, part.op?.word, part.slice?.offset, part.slice?.length];
  words.push(part.replace?.pattern, part.replace?.with);
  const present = words.filter((word): word is Word => Boolean(word));
  return present.sort((a, b) => a.start.offset - b.start.offset).flatMap((word) => word.parts);
}

// bash's sh_single_quote: a lone ' as \'.
export function singleQuoted(text: Bytes): Bytes {
  return text === "'" ? "\\'" : `'${text.replaceAll("'", "'\\''")}'`;
}

export function after(pos: Span['start'], n: number): Span['start'] {
  return { ...pos, offset: pos.offset + n };
}

export function text(src: Bytes, span: Span): Bytes {
  return src.slice(span.start.offset, span.end.offset);
}

export function prefixed(head: string, body: Printed, tail = ''): Printed {
  return body === null ? null : `${head}${body}${tail}`;
}

export function joined(items: readonly Printed[]): Printed {
  return items.includes(null) ? null : items.join(' ');
}
