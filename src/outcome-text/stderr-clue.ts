import { formatBytes } from '../format-units.js';
import type { StderrClue } from '../types.js';

// What a failed stage's stderr says about its failure, as the end of `next`: its last line, or why
// there is none (not text, nothing written, or a redirection sent it elsewhere).
export function said(clue: StderrClue): string {
  if (clue.kind === 'line') return `; its last stderr line: ${JSON.stringify(clue.line)}`;
  if (clue.kind === 'redirected') {
    if (clue.to === 'stdout') return '; its stderr went into its stdout (2>&1): read it there';
    if (clue.to === 'file /dev/null')
      return '; its stderr was thrown away (2>/dev/null): run it without that to see why';
    return `; its stderr went to ${clue.to}: read it there`;
  }
  const saved = clue.logFile ? ` (whole stream: ${clue.logFile})` : '';
  return clue.kind === 'binary'
    ? `; its stderr (${formatBytes(clue.bytes)}) is not text${saved}`
    : `; it wrote nothing to stderr${saved}`;
}
