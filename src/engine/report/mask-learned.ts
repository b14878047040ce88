import { MASK, maskText } from '../../capture/mask.js';
import { maskCut, maskShortened } from '../../capture/mask-cut.js';
import type { Report, StreamReport } from '../../types.js';
import { maskReport } from './mask-report.js';

// The omission marker a kept text has where its head and tail were cut apart (head-tail.ts).
const OMISSION = /\[\.\.\. safe-run: [\d,]+ bytes omitted \.\.\.\]\n/;

// Masks kept text as the keeper would have, had it known `secrets`: whole values, and at the cut
// between head and tail the piece of a value the cut left on either side.
export function maskKeptText(text: string, secrets: readonly string[]): string {
  const marker = OMISSION.exec(text);
  if (!marker) return maskText(text, secrets);
  const head = text.slice(0, marker.index);
  // The keeper ends a head cut inside a line with a newline of its own.
  const open = head.endsWith('\n') ? head.slice(0, -1) : head;
  const shownHead = `${maskCut(open, secrets, { start: false, end: true })}${open === head ? '' : '\n'}`;
  const tail = text.slice(marker.index + marker[0].length);
  return `${shownHead}${marker[0]}${maskCut(tail, secrets, { start: true, end: false })}`;
}

export function maskKept(stream: StreamReport, secrets: readonly string[]): StreamReport {
  return stream.text === null ? stream : { ...stream, text: maskKeptText(stream.text, secrets) };
}

// The report with values learned during the run (a stage's ::add-mask:: line) masked everywhere,
// also in text that was kept before the value was known: an earlier step's stderr, another stage
// of the pipeline that had ended, the lines before the command in the same chunk. A value that
// "***" itself holds is left out, so masking twice changes nothing.
export function maskLearned(report: Report, learned: readonly string[]): Report {
  const values = learned.filter((value) => value.length > 0 && !MASK.includes(value));
  if (values.length === 0) return report;
  const masked = maskReport(report, values);
  return {
    ...masked,
    ...(masked.command === undefined ? {} : { command: maskShortened(masked.command, values) }),
    stages: masked.stages.map((stage) => ({
      ...stage,
      stdout: maskKept(stage.stdout, values),
      stderr: maskKept(stage.stderr, values),
    })),
  };
}
