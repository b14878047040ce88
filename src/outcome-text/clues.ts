import { formatBytes } from '../format-units.js';
import type { Advice, StageRef, StderrClue } from '../types.js';

export const who = (stage: StageRef) => `stage ${stage.index} "${stage.name}"`;

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

// The text's own `exit N`, and what it said before it.
export function textExit(a: Extract<Advice, { kind: 'text-exit' }>): string {
  const start = `the text ended itself with \`${a.command}\` (${who(a.stage)})`;
  if (a.said)
    return `${start}; the last stderr line before it: ${JSON.stringify(a.said.line)} (${who(a.said.stage)})`;
  return a.after ? `${start}, after ${who(a.after.stage)} failed with status ${a.after.code}` : start;
}
