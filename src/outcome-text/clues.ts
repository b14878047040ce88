import { formatBytes } from '../format-units.js';
import type { Advice, StageRef, StderrClue } from '../types.js';

export const who = (stage: StageRef) => `stage ${stage.index} "${stage.name}"`;

// What a failed stage's stderr says about its failure, as the end of `next`: its last line, or why
// there is none (not text, nothing written, or a redirection sent it elsewhere).
export function said(clue: StderrClue): string {
  if (clue.kind === 'line') return `; its last stderr line: ${JSON.stringify(clue.line)}`;
  if (clue.kind === 'redirected') {
    if (clue.to === 'stdout') return intoStdout(clue.stdoutTo ?? null, clue.into ?? null);
    if (clue.to === 'file /dev/null')
      return '; its stderr was thrown away (to /dev/null): run it without that to see why';
    if (clue.to === 'pipe') return '; its stderr went into a pipe: it was the input of the command after it';
    return `; its stderr went to ${clue.to}: read it there`;
  }
  const saved = clue.logFile ? ` (whole stream: ${clue.logFile})` : '';
  return clue.kind === 'binary'
    ? `; its stderr (${formatBytes(clue.bytes)}) is not text${saved}`
    : `; it wrote nothing to stderr${saved}`;
}

// `2>&1`: stderr went where stdout led at that point. A later redirection of stdout (`2>&1 >file`)
// sends stdout elsewhere but leaves stderr on the first stdout: the pipe, or what safe-run captured.
function intoStdout(stdoutTo: string | null, into: StageRef | null): string {
  const later = stdoutTo
    ? ` and its stdout to ${stdoutTo} (2>&1 came before stdout's own redirection)`
    : ' (2>&1)';
  if (into) return `; its stderr went into the pipe to ${who(into)}${later}: it was that stage's input`;
  if (stdoutTo)
    return `; its stderr went to the stdout safe-run captured${later}: read it in the stage's stdout`;
  return '; its stderr went into its stdout (2>&1): read it there';
}

// The text's own `exit N`, and what it said before it.
export function textExit(a: Extract<Advice, { kind: 'text-exit' }>): string {
  const start = `the text ended itself with \`${a.command}\` (${who(a.stage)})`;
  if (a.said)
    return `${start}; the last stderr line before it: ${JSON.stringify(a.said.line)} (${who(a.said.stage)})`;
  return a.after ? `${start}, after ${who(a.after.stage)} failed with status ${a.after.code}` : start;
}
