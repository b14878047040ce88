// Where the brackets of a ${...} close, found in its text as bash matches them at parse time.

// The } matching the ${ whose contents start at `from`, counting nested braces and skipping quotes.
export function closingBrace(text: string, from: number): number {
  return closingOf(text, from, '{', '}');
}

// The `close` matching an `open` just before `from`: nested pairs counted, a backslash's character
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
    } else if (c === open) depth++;
    else if (c === close) {
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
