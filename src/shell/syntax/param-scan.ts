// Where the brackets of a ${...} close, found in its text as bash matches them at parse time.

// The } matching the ${ whose contents start at `from`: a nested ${ counted (a bare { is not, as in
// bash: ${x:-{a,b}} ends at the first }, the second is text after it), quotes skipped.
export function closingBrace(text: string, from: number): number {
  return closingOf(text, from, '${', '}');
}

// The `close` matching an `open` just before `from` (an `open` of two characters: its last is the
// bracket): nested pairs counted, a backslash's character
// and single-quoted text skipped; -1 when there is none.
export function closingOf(text: string, from: number, open: string, close: string): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) return -1;
      i = end;
    } else if (text.startsWith(open, i)) {
      depth++;
      i += open.length - 1;
    } else if (c === close) {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

export function matchingBracket(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '[') depth++;
    else if (c === ']') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}
