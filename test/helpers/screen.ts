// A tiny terminal: replays what a program wrote to a pty and returns the lines left on the screen.
// It knows only what safe-run's live view uses: CR, LF, "cursor to the start of the line n lines
// up" (ESC [ n F), "erase to the end of the screen" (ESC [ J); colours (ESC [ ... m) are dropped.
export function finalScreen(transcript: string): string[] {
  const lines: string[] = [''];
  let row = 0;
  let col = 0;
  const put = (ch: string) => {
    const line = lines[row]!.padEnd(col);
    lines[row] = line.slice(0, col) + ch + line.slice(col + 1);
    col += 1;
  };
  for (let i = 0; i < transcript.length; i += 1) {
    const ch = transcript[i]!;
    if (ch === '\x1b') {
      const match = /^\x1b\[(\d*)([A-Za-z])/.exec(transcript.slice(i));
      if (!match) continue;
      i += match[0].length - 1;
      const n = Number(match[1] || '1');
      if (match[2] === 'F') {
        row = Math.max(0, row - n);
        col = 0;
      } else if (match[2] === 'J') {
        lines[row] = lines[row]!.slice(0, col);
        lines.length = row + 1;
      }
    } else if (ch === '\r') col = 0;
    else if (ch === '\n') {
      row += 1;
      col = 0;
      if (lines.length <= row) lines.push('');
    } else put(ch);
  }
  return lines;
}
