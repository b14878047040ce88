import type { Report } from '../types.js';

// A name an earlier call of the session defined as a function, run by a later call: functions do not
// carry over from one call to the next, so the later call looked the name up on PATH and did not find
// it. The engine's advice for that ("fix the machine: install the program, fix PATH") is wrong here;
// this says what happened instead. The first such stage is named; the report is otherwise unchanged.
export function forgottenFunctionAdvice(report: Report, earlier: ReadonlySet<string>): Report {
  const stage = report.stages.find(
    (candidate) =>
      candidate.status === 'not-started' &&
      candidate.error?.code === 'ENOENT' &&
      earlier.has(candidate.argv[0] ?? ''),
  );
  if (!stage) return report;
  const name = stage.argv[0]!;
  const next =
    `stage ${stage.index} "${stage.name}" could not start: ${name} is a function an earlier call defined, ` +
    'and functions do not carry over from one call to the next (the directory and exported variables do): ' +
    `define ${name} in the call that uses it, or put it in a file and source that file in that call`;
  return { ...report, next };
}
