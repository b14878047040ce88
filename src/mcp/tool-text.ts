import { Chalk } from 'chalk';
import { groupDigits } from '../capture/cut-points.js';
import { formatBytes } from '../format-units.js';
import { renderTable } from '../reporters/table.js';
import type { ShellState } from '../session/state-files.js';
import type { Report } from '../types.js';
import type { WindowText } from './output-window.js';
import type { TranscriptFile } from './transcript.js';

const plain = new Chalk({ level: 0 });

// What a call printed, as the result shows it: head and tail, and where the rest is.
export interface ShownOutput {
  text: WindowText;
  file: TranscriptFile | null;
}

// The line in place of what was cut: how much, which lines, and how to read them with the tools the
// model has (the run tool and sed), or to ask for more at once.
export function cutMarker(cut: NonNullable<WindowText['cut']>, file: TranscriptFile | null): string {
  const size = `${groupDigits(cut.bytes)} bytes (${formatBytes(cut.bytes)}, lines ${groupDigits(cut.fromLine)}-${groupDigits(cut.toLine)})`;
  if (!file) return `[... ${size} cut here; they were not kept ...]`;
  const where = file.complete
    ? `the whole output is in ${file.path}`
    : `the first ${formatBytes(file.bytesWritten)} of the output are in ${file.path}`;
  return `[... ${size} cut here; ${where}: read a part with run, e.g. ${readPart(cut, file.path)}, or grep it; or pass a larger "budget" ...]`;
}

// A command that reads the start of what was cut: by lines, or by bytes when the cut lies within one
// or two lines (a minified file, base64 -w0), which sed would print whole.
function readPart(cut: NonNullable<WindowText['cut']>, file: string): string {
  if (cut.toLine - cut.fromLine >= 2) {
    return `sed -n '${cut.fromLine},${Math.min(cut.toLine, cut.fromLine + 99)}p' ${file}`;
  }
  return `tail -c +${cut.fromByte + 1} ${file} | head -c 4000`;
}

// In place of output that is data (an image, a compressed stream, a binary sent to the terminal):
// how much, and where it is, to read with od or xxd.
function binaryMarker(bytes: number, file: TranscriptFile | null): string {
  const size = `${groupDigits(bytes)} bytes (${formatBytes(bytes)})`;
  const where = file
    ? `it is in ${file.path}: read a part with run, e.g. od -A d -c ${file.path} | head -20, or xxd`
    : 'it was not kept';
  return `[binary output: ${size} of data (a NUL byte, or mostly not UTF-8), not shown; ${where}]`;
}

// The output section: the text as printed, with the cut said in place; bytes that are not UTF-8 as
// \xHH; data as a line that says so.
export function renderOutput(shown: ShownOutput, title = 'output'): string {
  const { text, file } = shown;
  if (text.bytes === 0) return '';
  if (text.binary) return `--- ${title} ---\n${binaryMarker(text.bytes, file)}\n`;
  const body = text.cut ? `${withNewline(text.head)}${cutMarker(text.cut, file)}\n${text.tail}` : text.head;
  const ended = body.endsWith('\n') ? body : `${body}\n[no newline at the end]\n`;
  return `--- ${title} ---\n${ended}`;
}

function withNewline(text: string): string {
  return text.length === 0 || text.endsWith('\n') ? text : `${text}\n`;
}

// The per-stage table, the verdict and `next:`, as the CLI prints them on stderr, the verdict line
// without its "safe-run: " (the model knows who speaks).
export function renderVerdict(report: Report): string {
  return renderTable(report, plain, '');
}

interface CallText {
  report: Report;
  state: ShellState;
  fallback: { reason: string } | null;
  stateKnown: boolean;
  output: ShownOutput;
}

// The text a model reads after `run`: the output first, then the per-stage table, the verdict, what
// to do next, and the directory the session is now in.
export function renderToolText(call: CallText): string {
  const { report, state, fallback, stateKnown } = call;
  const parts = [renderOutput(call.output), renderVerdict(report)];
  // The table already names the construct bash was needed for (report.fallback).
  if (fallback && !report.fallback) parts.push(`interpreted by bash as one stage: ${fallback.reason}\n`);
  parts.push(
    stateKnown
      ? `cwd: ${state.cwd}\n`
      : `cwd: ${state.cwd} (unchanged: bash left no state behind, e.g. the command replaced the EXIT trap or was killed)\n`,
  );
  return parts.join('');
}
