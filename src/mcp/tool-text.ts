import { Chalk } from 'chalk';
import { formatBytes } from '../format-units.js';
import { renderTable } from '../reporters/table.js';
import type { Report } from '../types.js';
import type { CommandOutcome } from './run-command.js';

interface Shown {
  label: string;
  text: string;
}

const plain = new Chalk({ level: 0 });

// Head and tail of `text` within `bytes`, cut at line ends where it can, with the cut said in place.
export function clipText(text: string, bytes: number): string {
  const buffer = Buffer.from(text);
  if (buffer.length <= bytes) return text;
  const half = Math.max(0, Math.floor(bytes / 2));
  let head = buffer.subarray(0, half).toString('utf8');
  let tail = buffer.subarray(buffer.length - half).toString('utf8');
  const headEnd = head.lastIndexOf('\n');
  if (headEnd > half / 2) head = head.slice(0, headEnd + 1);
  const tailStart = tail.indexOf('\n');
  if (tailStart !== -1 && tailStart < half / 2) tail = tail.slice(tailStart + 1);
  const cut = buffer.length - Buffer.byteLength(head) - Buffer.byteLength(tail);
  const gap = head.endsWith('\n') ? '' : '\n';
  return `${head}${gap}[... ${formatBytes(cut)} cut here ...]\n${tail}`;
}

// The streams an agent reads: the product (the last stage's stdout) and every stage's stderr.
function streamsOf(report: Report): Shown[] {
  const shown: Shown[] = [];
  const several = report.stages.length > 1;
  const last = report.stages[report.stages.length - 1];
  if (last?.stdout.text)
    shown.push({ label: several ? `stdout of ${last.name}` : 'stdout', text: last.stdout.text });
  for (const stage of report.stages) {
    if (stage.stderr.text)
      shown.push({ label: several ? `stderr of ${stage.name}` : 'stderr', text: stage.stderr.text });
  }
  return shown;
}

// Shares `budget` bytes among the streams: a short stream gives what it does not use to the others.
function fitStreams(streams: Shown[], budget: number): Shown[] {
  const sizes = streams.map((stream) => Buffer.byteLength(stream.text));
  const allowed = new Array<number>(streams.length).fill(0);
  let left = budget;
  let open = streams.map((_, i) => i);
  while (open.length > 0 && left > 0) {
    const share = Math.floor(left / open.length);
    const small = open.filter((i) => sizes[i]! - allowed[i]! <= share);
    if (small.length === 0) {
      for (const i of open) allowed[i] = allowed[i]! + share;
      break;
    }
    for (const i of small) {
      left -= sizes[i]! - allowed[i]!;
      allowed[i] = sizes[i]!;
    }
    open = open.filter((i) => !small.includes(i));
  }
  return streams.map((stream, i) => ({ ...stream, text: clipText(stream.text, allowed[i]!) }));
}

// The text a model reads after `run`: the output first, then the per-stage table, the verdict, what
// to do next, and the directory the session is now in.
export function renderToolText(outcome: CommandOutcome, budget: number): string {
  const { report, state, fallback, stateKnown } = outcome;
  const parts: string[] = [];
  for (const stream of fitStreams(streamsOf(report), budget)) {
    const text = stream.text.endsWith('\n') ? stream.text : `${stream.text}\n[no newline at the end]\n`;
    parts.push(`--- ${stream.label} ---\n${text}`);
  }
  parts.push(renderTable(report, plain).replace(/^safe-run: /m, ''));
  // The table already names the construct bash was needed for (report.fallback).
  if (fallback && !report.fallback) parts.push(`interpreted by bash as one stage: ${fallback.reason}\n`);
  parts.push(
    stateKnown
      ? `cwd: ${state.cwd}\n`
      : `cwd: ${state.cwd} (unchanged: bash left no state behind, e.g. the command replaced the EXIT trap or was killed)\n`,
  );
  return parts.join('');
}
