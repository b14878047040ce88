export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

// Interpreter names come from file bytes: make control characters (a CR above all) visible.
export function showControls(text: string): string {
  return text.replace(/[\x00-\x1f\x7f]/g, (c) =>
    c === '\r' ? '\\r' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}
