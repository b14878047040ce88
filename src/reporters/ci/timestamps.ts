// A UTC time of day to the millisecond, "04:45:11.123": short enough for every line of a CI log,
// and comparable across the runner's own clock lines.
export function formatStamp(at: Date): string {
  return at.toISOString().slice(11, 23);
}

// Prefixes every line of safe-run's own text with the time it is printed.
export function stampLines(text: string, at: Date): string {
  if (text.length === 0) return text;
  const stamp = `${formatStamp(at)} `;
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  return `${body
    .split('\n')
    .map((line) => stamp + line)
    .join('\n')}${text.endsWith('\n') ? '\n' : ''}`;
}
